"""The run's parameters (whr.params): a base URL's host is a host name or an IP address."""

from __future__ import annotations

import pytest

from whr.params import check_base_url

NOT_A_LABEL = "is not a label of 1 to 63 letters, digits and hyphens that neither starts nor ends"
NOT_IPV4 = "is not an IPv4 address (four numbers from 0 to 255, without leading zeros)"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("https://x..org/", "the host 'x..org' is not a host name: it has an empty label"),
        ("https://.x.org/", "the host '.x.org' is not a host name: it has an empty label"),
        ("https://-x.org/", f"the host '-x.org' is not a host name: '-x' {NOT_A_LABEL}"),
        ("https://x-.org/", f"the host 'x-.org' is not a host name: 'x-' {NOT_A_LABEL}"),
        ("https://a_b.org/", f"the host 'a_b.org' is not a host name: 'a_b' {NOT_A_LABEL}"),
        (f"https://{'a' * 64}.org/", f"'{'a' * 64}' {NOT_A_LABEL}"),
        (f"https://{'a.' * 127}org/", "is not a host name: longer than 253 characters"),
        ("https://999.999.999.999/", f"the host '999.999.999.999' {NOT_IPV4}"),
        ("https://01.2.3.4/", f"the host '01.2.3.4' {NOT_IPV4}"),
        ("https://1.2.3/", f"the host '1.2.3' {NOT_IPV4}"),
        ("https://x.123/", f"the host 'x.123' {NOT_IPV4}"),
        ("http://[1::zz]/", "'1::zz' does not appear to be an IPv4 or IPv6 address"),
    ],
)
def test_a_host_that_is_no_name_nor_address_is_refused_saying_why(url: str, says: str) -> None:
    with pytest.raises(ValueError) as refused:
        check_base_url(url)
    assert str(refused.value).startswith("base_url ") and says in str(refused.value)


@pytest.mark.parametrize(
    "url",
    [
        "https://rif.example.org/",
        "https://rif.example.org.:8080/renju/",  # the root's dot, a port
        "https://1.2.3.4/",
        "https://255.255.255.255/",
        "http://[::1]:8000/",
        "https://bücher.example/",  # another script, by its IDNA form
        "https://localhost/",
        "https://xn--bcher-kva.example/",
        f"https://{'a' * 63}.org/",
    ],
)
def test_host_names_and_addresses_are_accepted(url: str) -> None:
    assert check_base_url(url) == url


def test_an_address_that_cannot_be_split_is_not_shown() -> None:
    """urllib refuses to split it, so its credentials and query cannot be hidden: the message
    shows none of it."""
    with pytest.raises(ValueError) as refused:
        check_base_url("https://user:hunter2@[1::zz]/?token=abc")
    assert "hunter2" not in str(refused.value) and "abc" not in str(refused.value)
    assert "not shown" in str(refused.value)
