from decimal import Decimal
import pytest
from invoicer.legacy import approve_discount, next_number


@pytest.mark.parametrize("seq", [1, 42, 99999])
def test_next_number(seq):
    assert next_number(seq, 2024).startswith("INV-2024-")


@pytest.mark.parametrize("pct", list(range(0, 101, 5)))
def test_approve_discount(pct):
    assert approve_discount("100.00", pct) == Decimal(100 - pct).quantize(Decimal("0.01"))
