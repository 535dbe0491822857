"""The demo server the clients talk to, and what they need to know about it.

`run.sh` starts `portal serve --demo` and passes its address in PORTAL_CLIENTS_URL. Before any
client runs, the session waits (with plain HTTP, no client code) until every demo inverter
reports fresh values, so each test sees real readings rather than an empty start.
"""

import json
import os
import time
import urllib.request
from dataclasses import dataclass

import pytest

DEMO_USER = "demo@example.com"
DEMO_PASSWORD = "demo1234"
# The demo's single-phase 48 V hybrid home: a battery, time-of-use settings, a weather station.
HOME_KIND = "single_phase_lv_hybrid"
READY_TIMEOUT_S = 180


@dataclass(frozen=True)
class Demo:
    url: str
    plant_id: int
    plant_name: str
    sn: str
    lat: float
    lon: float
    inverter_sns: frozenset


def _call(url, path, token=None, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url + path, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=20) as resp:
        return json.load(resp)


def _token(url):
    body = {"username": DEMO_USER, "password": DEMO_PASSWORD,
            "grant_type": "password", "client_id": "csp-web"}
    return _call(url, "/oauth/token", body=body)["data"]["access_token"]


def _ready(url, token):
    """The demo once every inverter is online with fresh values and the home plant's weather
    station has reported; None before."""
    infos = _call(url, "/api/v1/inverters?page=1&limit=100", token)["data"]["infos"]
    if not infos or not all(i["online"] and not i["stale"] for i in infos):
        return None
    home = next((i for i in infos if i["typeKey"] == HOME_KIND), None)
    if home is None:
        return None
    plant = _call(url, f"/api/v1/plant/{home['plantId']}", token)["data"]
    weather = _call(url, f"/api/v1/weather?lan=en&lonLat={plant['lat']},{plant['lon']}", token)
    if (weather["data"]["currWea"] or {}).get("currTemp") is None:
        return None
    return Demo(url=url, plant_id=plant["id"], plant_name=plant["name"], sn=home["sn"],
                lat=plant["lat"], lon=plant["lon"],
                inverter_sns=frozenset(i["sn"] for i in infos))


@pytest.fixture(scope="session")
def demo():
    url = os.environ.get("PORTAL_CLIENTS_URL")
    if not url:
        pytest.exit("PORTAL_CLIENTS_URL is not set: run harness/clients/run.sh", returncode=2)
    deadline = time.monotonic() + READY_TIMEOUT_S
    last_error = None
    while time.monotonic() < deadline:
        try:
            found = _ready(url, _token(url))
            if found:
                return found
        except OSError as e:  # not listening yet
            last_error = e
        time.sleep(1)
    pytest.exit(f"the demo did not report within {READY_TIMEOUT_S} s ({last_error})", returncode=2)


def eventually(read, wanted, timeout_s=40):
    """Polls `read()` until it equals `wanted`: a written setting shows once the device has
    confirmed it. Answers the last value read."""
    deadline = time.monotonic() + timeout_s
    value = read()
    while value != wanted and time.monotonic() < deadline:
        time.sleep(1)
        value = read()
    return value
