"""SearchOptions refuses what is not a search with one line naming the option and its bounds,
whoever builds it: the CLI, a server request, or the Python API passing a value through."""

import dataclasses

import pytest

from fanyi.decode import SearchOptions


@pytest.mark.parametrize("value", [None, 2.5, True, 0, 65])
def test_a_size_that_is_not_an_integer_in_bounds_is_refused_by_name(value):
    with pytest.raises(ValueError, match=rf"beam must be between 1 and 64, not {value}"):
        SearchOptions(beam=value)


def test_a_change_per_call_is_checked_as_a_new_option_is():
    options = SearchOptions(beam=4, n_best=2)
    assert dataclasses.replace(options, beam=8).beam == 8
    with pytest.raises(ValueError, match="n_best=2 exceeds beam=1"):
        dataclasses.replace(options, beam=1)
    with pytest.raises(ValueError, match="no_repeat_ngram_size must be between 0"):
        dataclasses.replace(options, no_repeat_ngram_size=None)
