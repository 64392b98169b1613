import logging
from dataclasses import dataclass, field
from decimal import Decimal, ROUND_HALF_UP

log = logging.getLogger("invoicer")

RATES = {"standard": Decimal("0.20"), "reduced": Decimal("0.05"), "zero": Decimal("0")}


@dataclass
class Line:
    sku: str
    qty: int
    unit: Decimal
    rate: str = "standard"


@dataclass
class Invoice:
    number: str
    customer: dict
    lines: list = field(default_factory=list)

    def net(self):
        return sum((l.unit * l.qty for l in self.lines), Decimal("0"))

    def tax(self):
        total = Decimal("0")
        for l in self.lines:
            total += (l.unit * l.qty * RATES[l.rate]).quantize(Decimal("0.01"), ROUND_HALF_UP)
        return total

    def gross(self):
        return self.net() + self.tax()

    def to_dict(self):
        return {
            "number": self.number,
            "customer": self.customer["name"],
            "country": self.customer["address"]["country"],
            "net": str(self.net()),
            "tax": str(self.tax()),
            "gross": str(self.gross()),
            "lines": len(self.lines),
        }


def parse_line(text):
    sku, qty, unit, *rest = [p.strip() for p in text.split(",")]
    rate = rest[0] if rest else "standard"
    if rate not in RATES:
        log.error("unknown tax rate %r on line %r", rate, text)
        raise ValueError(f"unknown tax rate: {rate}")
    return Line(sku, int(qty), Decimal(unit), rate)


def number_for(seq, year):
    return f"INV-{year}-{seq:05d}"


def discount(amount, percent):
    if not 0 <= percent <= 100:
        raise ValueError("percent out of range")
    return (amount * (100 - percent) / 100).quantize(Decimal("0.01"))
