"""Public client libraries read and write the emulators and get what the emulator holds."""

import json

import pytest
from pymodbus.client import ModbusSerialClient, ModbusTcpClient
from pymodbus.exceptions import ModbusIOException
from pysolarmanv5 import PySolarmanV5
from umodbus.exceptions import IllegalDataAddressError

from conftest import BAUD, ROOT, SERIAL


def expected(device: dict, block: dict) -> list:
    """A block's words, writable registers masked (another check may have written them)."""
    writable = set(device["writable"])
    return [None if block["start"] + i in writable else w for i, w in enumerate(block["words"])]


def masked(device: dict, block: dict, words: list) -> list:
    return expected(device, {**block, "words": list(words)})


def check_all(emulator, read, units=None) -> int:
    n = 0
    for device in emulator.dump["devices"]:
        if units is not None and device["unit"] not in units:
            continue
        for block in device["blocks"]:
            words = read(device, block)
            assert masked(device, block, words) == expected(device, block), (device["sn"], block["start"])
            n += 1
    return n


def decode(point: dict, word) -> object:
    """This file's own reading of a point from its registers (the portal's decoder is not
    used): 16- and 32-bit integers, Deye's low-word-first order, scale and base, bit fields."""
    if point.get("byte_swap") or point.get("skip_bytes") or point.get("count"):
        return None
    t, a = point["data_type"], point["address"]
    scale, base = point.get("scale", 1), point.get("base", 0)
    if isinstance(t, dict) and "bits" in t:
        b = t["bits"]
        if point.get("second_address") or b["bit"] + b["width"] > 16:
            return None
        raw = (word(a) >> b["bit"]) & ((1 << b["width"]) - 1)
        return bool(raw) if b["width"] == 1 else raw * scale + base
    if t in ("u16", "i16"):
        raw = word(a)
        if t == "i16" and raw >= 0x8000:
            raw -= 0x10000
    elif t in ("u32", "i32"):
        second = point.get("second_address", a + 1)
        raw = word(a) | word(second) << 16 if point.get("word_swap") else word(a) << 16 | word(second)
        if t == "i32" and raw >= 0x8000_0000:
            raw -= 0x1_0000_0000
    else:
        return None
    return raw * scale + base


def test_the_dumped_registers_decode_here_as_the_portal_decodes_them(emulator):
    checked = 0
    for device in emulator.dump["devices"]:
        words = {}
        for block in device["blocks"]:
            if block["function"] == 3:
                for i, w in enumerate(block["words"]):
                    words[block["start"] + i] = w
        config_points = device_points(emulator, device)
        for point in config_points:
            if point.get("function_code", 3) != 3:
                continue
            value = decode(point, lambda a: words[a])
            if value is None or point["key"] not in device["values"]:
                continue
            ours = device["values"][point["key"]]
            assert value == pytest.approx(ours, rel=1e-9, abs=1e-9), (device["sn"], point["key"])
            checked += 1
    assert checked > 100


def device_points(emulator, device):
    if device["protocol"] == "deye-hybrid-1ph":
        return emulator.hybrid["points"]
    path = ROOT / f"crates/devices/protocols/{device['protocol']}.json"
    return json.loads(path.read_text())["points"]


def test_pymodbus_reads_every_device_over_modbus_tcp(emulator):
    client = ModbusTcpClient("127.0.0.1", port=emulator.tcp_port, timeout=3)
    assert client.connect()

    def read(device, block):
        fn = client.read_holding_registers if block["function"] == 3 else client.read_input_registers
        r = fn(block["start"], count=len(block["words"]), device_id=device["unit"])
        assert not r.isError(), r
        return r.registers

    assert check_all(emulator, read) >= 6
    # A unit the site does not have: the gateway's "target device failed to respond".
    r = client.read_holding_registers(0, count=1, device_id=99)
    assert r.isError() and r.exception_code == 0x0B
    client.close()


def test_pymodbus_reads_the_rs485_bus_on_its_pty(emulator):
    client = ModbusSerialClient(emulator.rtu, baudrate=BAUD, timeout=2)
    assert client.connect()

    def read(device, block):
        fn = client.read_holding_registers if block["function"] == 3 else client.read_input_registers
        r = fn(block["start"], count=len(block["words"]), device_id=device["unit"])
        assert not r.isError(), r
        return r.registers

    assert check_all(emulator, read) >= 6
    client.close()  # pyserial locks the port: one client at a time, as with a real adapter
    quiet = ModbusSerialClient(emulator.rtu, baudrate=BAUD, timeout=0.3, retries=0)
    assert quiet.connect()
    try:
        r = quiet.read_holding_registers(0, count=1, device_id=42)
        assert r.isError(), "a unit not on the bus stays silent"
    except ModbusIOException:
        pass
    quiet.close()


def test_pysolarmanv5_reads_the_devices_behind_the_stick(emulator):
    def read(device, block):
        stick = PySolarmanV5("127.0.0.1", SERIAL, port=emulator.v5_port, mb_slave_id=device["unit"], socket_timeout=3)
        try:
            fn = stick.read_holding_registers if block["function"] == 3 else stick.read_input_registers
            return fn(register_addr=block["start"], quantity=len(block["words"]))
        finally:
            stick.disconnect()

    assert check_all(emulator, read, units={1, 3}) >= 3


def test_writes_land_on_settings_and_are_refused_elsewhere(emulator):
    mode = emulator.setting_address("sysWorkMode")
    charge = emulator.setting_address("batteryMaxCurrentCharge")
    client = ModbusTcpClient("127.0.0.1", port=emulator.tcp_port, timeout=3)
    assert client.connect()
    assert not client.write_register(mode, 1, device_id=1).isError()
    assert client.read_holding_registers(mode, count=1, device_id=1).registers == [1]
    refused = client.write_register(59, 1, device_id=1)
    assert refused.isError() and refused.exception_code == 2, "running state is not a setting"
    refused = client.write_registers(charge, [999], device_id=1)
    assert refused.isError() and refused.exception_code == 3, "beyond the setting's limit"
    client.close()

    stick = PySolarmanV5("127.0.0.1", SERIAL, port=emulator.v5_port, mb_slave_id=1, socket_timeout=3)
    stick.write_multiple_holding_registers(register_addr=charge, values=[120])
    assert stick.read_holding_registers(register_addr=charge, quantity=1) == [120]
    with pytest.raises(IllegalDataAddressError):
        stick.write_multiple_holding_registers(register_addr=59, values=[1])
    stick.disconnect()

    bus = ModbusSerialClient(emulator.rtu, baudrate=BAUD, timeout=2)
    assert bus.connect()
    assert not bus.write_registers(mode, [2], device_id=1).isError()
    assert bus.read_holding_registers(mode, count=1, device_id=1).registers == [2]
    bus.close()


def test_a_stick_with_another_serial_does_not_answer(emulator):
    stick = PySolarmanV5("127.0.0.1", SERIAL + 1, port=emulator.v5_port, mb_slave_id=1, socket_timeout=1)
    with pytest.raises(Exception):
        stick.read_holding_registers(register_addr=184, quantity=1)
    stick.disconnect()
