"""Starts `portal emulate` once for the session: the model held still (--freeze), a Modbus TCP
server, a Solarman V5 stick and an RTU bus on a pty, and the JSON the emulator dumps of every
device's registers and decoded values."""

import json
import os
import pathlib
import select
import signal
import socket
import subprocess
import tempfile
from dataclasses import dataclass

import pytest

ROOT = pathlib.Path(os.environ.get("PORTAL_ROOT", pathlib.Path(__file__).resolve().parents[2]))
PORTAL = os.environ.get("PORTAL_BIN", str(ROOT / "target/debug/portal"))
SERIAL = 2612749371
BAUD = 19200

# Settings the checks write, on the Deye single-phase hybrid's registers, added to its shipped
# map only when the map does not have them yet: (param, point key, address, encoding, min, max).
SETTINGS = [
    ("sysWorkMode", "work_mode", 244, "number", 0, 2),
    ("batteryMaxCurrentCharge", "battery_max_charge_current", 210, "number", 0, 185),
    ("sellTime1", "prog1_time", 250, "hhmm", None, None),
]


def hybrid_config(directory: pathlib.Path) -> dict:
    config = json.loads((ROOT / "crates/devices/protocols/deye-hybrid-1ph.json").read_text())
    settings = config.setdefault("settings", [])
    params = {s["param"] for s in settings}
    keys = {p["key"] for p in config["points"]}
    for param, key, address, encoding, low, high in SETTINGS:
        if param in params:
            continue
        if key not in keys:
            config["points"].append({"key": key, "address": address, "data_type": "u16"})
        setting = {"param": param, "point": key}
        if encoding != "number":
            setting["encoding"] = encoding
        if low is not None:
            setting.update(min=low, max=high)
        settings.append(setting)
    if "powerOn" not in params:
        settings.append({"param": "powerOn", "point": "power_on", "encoding": "flag"})
    (directory / "deye-hybrid-1ph.json").write_text(json.dumps(config))
    return config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Emulator:
    tcp_port: int
    v5_port: int
    rtu: str
    dump: dict
    hybrid: dict

    def setting_address(self, param: str) -> int:
        point = next(s["point"] for s in self.hybrid["settings"] if s["param"] == param)
        return next(p["address"] for p in self.hybrid["points"] if p["key"] == point)


@pytest.fixture(scope="session")
def emulator():
    with tempfile.TemporaryDirectory() as tmp:
        hybrid = hybrid_config(pathlib.Path(tmp))
        tcp, v5 = free_port(), free_port()
        args = [PORTAL, "emulate", "--freeze", "--dump", "--tcp", f"127.0.0.1:{tcp}",
                "--v5", f"127.0.0.1:{v5}", "--logger-serial", str(SERIAL), "--rtu",
                "--baud", str(BAUD), "--protocols", tmp]
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                env={**os.environ, "PORTAL_LOG": "warn"}, text=True)
        try:
            line = ""
            for _ in range(50):  # log lines may come first
                ready, _, _ = select.select([proc.stdout], [], [], 30)
                line = proc.stdout.readline() if ready else ""
                if not line or line.startswith("{"):
                    break
            if not line.startswith("{"):
                pytest.fail(f"portal emulate printed no dump (exit {proc.poll()})")
            dump = json.loads(line)
            yield Emulator(tcp, v5, dump["servers"]["rtu"], dump, hybrid)
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
