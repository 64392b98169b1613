"""The 1.x API, kept for callers that have not moved to Numbering and Approval yet."""
import warnings
from decimal import Decimal

from invoicer.core import discount, number_for


def next_number(seq, year):
    warnings.warn("next_number() is deprecated, use Numbering.next() (removal in 3.0)", DeprecationWarning, stacklevel=2)
    return number_for(seq, year)


def approve_discount(amount, percent):
    if percent > 50:
        warnings.warn(f"discount of {percent}% exceeds the approval limit; an error will be raised from 3.0", UserWarning, stacklevel=2)
    return discount(Decimal(amount), percent)
