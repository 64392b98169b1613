import pytest
from nidaqlite.channels import ChannelError, check_range, parse_channels


def test_single():
    assert parse_channels("Dev1/ai0") == ["Dev1/ai0"]


def test_range_is_inclusive():
    assert parse_channels("Dev1/ai0:3") == ["Dev1/ai0", "Dev1/ai1", "Dev1/ai2", "Dev1/ai3"]


def test_missing_channel():
    with pytest.raises(ChannelError):
        parse_channels("Dev1")


@pytest.mark.parametrize("lo,hi", [(-10, 10), (-5, 5), (0, 1), (-0.5, 0.5)])
def test_check_range_ok(lo, hi):
    assert check_range(lo, hi) == hi - lo


@pytest.mark.parametrize("lo,hi", [(1, 1), (2, 1), (-11, 0), (0, 10.5)])
def test_check_range_rejects(lo, hi):
    with pytest.raises(ChannelError):
        check_range(lo, hi)


def test_check_range_custom_limits():
    assert check_range(-1, 1, limits=(-1, 1)) == 2
