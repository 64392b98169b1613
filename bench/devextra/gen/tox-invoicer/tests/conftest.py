import pytest
from invoicer.core import Invoice, Line
from decimal import Decimal


@pytest.fixture
def customer():
    return {"name": "ACME GmbH", "address": {"street": "Hauptstr. 1", "city": "Berlin", "country": "DE"}}


@pytest.fixture
def invoice(customer):
    inv = Invoice("INV-2024-00001", customer)
    inv.lines = [Line("A-100", 2, Decimal("19.99")), Line("B-200", 1, Decimal("5.00"), "reduced")]
    return inv


@pytest.fixture
def smtp_server():
    import socket
    s = socket.create_connection(("127.0.0.1", 2525), timeout=0.2)
    yield s
    s.close()
