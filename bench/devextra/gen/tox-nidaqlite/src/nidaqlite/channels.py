"""Channel naming and range checks for a small data-acquisition wrapper."""


class ChannelError(ValueError):
    pass


def parse_channels(spec):
    """Parse 'Dev1/ai0:3' into ['Dev1/ai0', ..., 'Dev1/ai3']."""
    device, _, rest = spec.partition("/")
    if not rest:
        raise ChannelError(f"missing channel in {spec!r}")
    prefix = rest.rstrip("0123456789:")
    numbers = rest[len(prefix):]
    if ":" in numbers:
        lo, hi = (int(x) for x in numbers.split(":"))
        return [f"{device}/{prefix}{i}" for i in range(lo, hi)]
    return [f"{device}/{prefix}{numbers}"]


def check_range(lo, hi, limits=(-10.0, 10.0)):
    if lo >= hi:
        raise ChannelError(f"min {lo} must be below max {hi}")
    if lo < limits[0] or hi > limits[1]:
        raise ChannelError(f"range [{lo}, {hi}] outside the device limits {limits}")
    return hi - lo
