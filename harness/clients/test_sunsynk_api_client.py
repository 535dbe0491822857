"""sunsynk-api-client 1.1.0 (`sunsynk`): async, RSA login built in; its models read
`data['key']` (a missing key raises KeyError) and parse times with strptime."""

import asyncio
import datetime

import pytest
from sunsynk.client import SunsynkClient

from conftest import DEMO_PASSWORD, DEMO_USER


def run(demo, calls):
    """Signs in as a user would (base URL without a trailing slash) and runs `calls(client)`."""
    async def go():
        client = await SunsynkClient.create(DEMO_USER, DEMO_PASSWORD, base_url=demo.url)
        try:
            return await calls(client)
        finally:
            await client.close()
    return asyncio.run(go())


def test_plants(demo):
    plants = run(demo, lambda c: c.get_plants())
    p = next(p for p in plants if p.id == demo.plant_id)
    assert p.name == demo.plant_name and p.generation_total > 0
    assert isinstance(p.updated_at, datetime.datetime)
    assert isinstance(p.created_at, datetime.datetime)


def test_plant_detail(demo):
    p = run(demo, lambda c: c.get_plant(demo.plant_id))
    assert (p.lat, p.lon) == (demo.lat, demo.lon)
    assert p.generation_total > 0 and isinstance(p.updated_at, datetime.datetime)
    assert p.master_id is not None


def test_weather(demo):
    async def calls(c):
        plant = await c.get_plant(demo.plant_id)
        return await c.get_weather(f"{plant.lat},{plant.lon}")
    w = run(demo, calls)
    assert isinstance(w.description, str) and w.description
    assert -40 < w.get_current_temp() < 60
    assert w.get_wind_speed() >= 0
    assert 0 <= w.get_wind_direction() < 360
    assert w.get_temp_min_c() <= w.get_temp_max_c()
    assert w.sunrise < w.sunset


def test_inverters(demo):
    inverters = run(demo, lambda c: c.get_inverters())
    assert inverters and {i.sn for i in inverters} <= demo.inverter_sns
    assert all(isinstance(i.updated_at, datetime.datetime) for i in inverters)
    assert all(isinstance(i.type, int) and isinstance(i.sunsynk_equip, bool) for i in inverters)


def test_input(demo):
    d = run(demo, lambda c: c.get_inverter_realtime_input(demo.sn))
    assert d.pv_iv and d.generated_total > 0
    assert d.get_power() >= 0


def test_output(demo):
    d = run(demo, lambda c: c.get_inverter_realtime_output(demo.sn))
    assert d.vip and d.vip[0].voltage > 100 and d.vip[0].current >= 0
    assert isinstance(d.vip[0].power, float) and 45 < d.fac < 65


def test_grid(demo):
    d = run(demo, lambda c: c.get_inverter_realtime_grid(demo.sn))
    assert d.get_voltage() > 100
    assert float(d.total_import) >= 0 and float(d.total_export) >= 0


def test_load(demo):
    d = run(demo, lambda c: c.get_inverter_realtime_load(demo.sn))
    assert d.total_power > 0 and d.total_used > 0


def test_battery(demo):
    d = run(demo, lambda c: c.get_inverter_realtime_battery(demo.sn))
    assert 0 <= float(d.soc) <= 100
    assert d.get_voltage() > 40 and isinstance(d.get_power(), float)
