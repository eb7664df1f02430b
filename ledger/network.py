"""Addresses on the local network: where phones at the table can reach this machine."""

from __future__ import annotations

import ipaddress
import socket

# Listening on every interface: phones on the wifi can reach the machine.
WILDCARD_HOSTS = {"0.0.0.0", "::", ""}


def lan_address() -> str:
    """This machine's address on the local network, or 127.0.0.1 when there is none.

    Connecting a UDP socket only asks the kernel which interface would route to that address;
    no packet is sent, so this works offline and behind any firewall.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return "127.0.0.1" if address == "0.0.0.0" else address


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
