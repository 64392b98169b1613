from decimal import Decimal
import logging
import pytest
from invoicer.core import Invoice, Line, parse_line, number_for, discount


def test_net(invoice):
    assert invoice.net() == Decimal("44.98")


def test_tax(invoice):
    assert invoice.tax() == Decimal("8.25")


def test_gross(invoice):
    assert invoice.gross() == Decimal("53.23")


def test_to_dict(invoice):
    assert invoice.to_dict() == {
        "number": "INV-2024-00001",
        "customer": "ACME GmbH",
        "country": "DE",
        "net": "44.98",
        "tax": "8.25",
        "gross": "53.23",
        "lines": 2,
        "currency": "EUR",
    }


def test_to_dict_without_address():
    inv = Invoice("INV-2024-00002", {"name": "Solo Ltd"})
    assert inv.to_dict()["country"] == ""


@pytest.mark.parametrize("seq,year,expected", [(1, 2024, "INV-2024-00001"), (42, 2024, "INV-2024-00042"), (99999, 2025, "INV-2025-99999")])
def test_number_for(seq, year, expected):
    assert number_for(seq, year) == expected


@pytest.mark.parametrize("text,qty,unit,rate", [
    ("A-1, 1, 9.99", 1, "9.99", "standard"),
    ("A-2, 3, 0.50, reduced", 3, "0.50", "reduced"),
    ("A-3, 10, 100, zero", 10, "100", "zero"),
    ("A-4, 2, 1.25, super-reduced", 2, "1.25", "super-reduced"),
    ("A-5, 1, 2.00, exempt", 1, "2.00", "exempt"),
])
def test_parse_line(text, qty, unit, rate):
    line = parse_line(text)
    assert (line.qty, line.unit, line.rate) == (qty, Decimal(unit), rate)


@pytest.mark.parametrize("pct", list(range(0, 101, 5)))
def test_discount_range(pct):
    assert discount(Decimal("100.00"), pct) == Decimal(100 - pct).quantize(Decimal("0.01"))


def test_discount_rejects():
    with pytest.raises(ValueError, match="out of range"):
        discount(Decimal("1"), 120)


def test_parse_logs_warning(caplog):
    caplog.set_level(logging.INFO)
    logging.getLogger("invoicer").warning("retrying upload after error: connection reset")
    assert parse_line("B-1, 1, 1.00").qty == 1


def test_send_invoice(invoice, smtp_server):
    smtp_server.sendall(b"HELO invoicer\r\n")
