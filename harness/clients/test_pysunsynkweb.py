"""pysunsynkweb 0.0.15: the library of a Home Assistant integration. Its base URL moves only the
login calls; the API calls read module globals. It changes one setting by reading all of them
and writing back its 62 keys."""

import asyncio
import decimal

import pysunsynkweb.inverter
import pysunsynkweb.model
import pysunsynkweb.session
from pysunsynkweb.client import SunsynkClient
from pysunsynkweb.model import get_plants

from conftest import DEMO_PASSWORD, DEMO_USER, eventually


def point_at(url):
    pysunsynkweb.model.BASE_API = pysunsynkweb.inverter.BASE_API = url + "/api/v1"
    pysunsynkweb.session.BASE_URL = url


def run(demo, calls):
    point_at(demo.url)

    async def go():
        client = SunsynkClient(DEMO_USER, DEMO_PASSWORD, base_url=demo.url)
        try:
            await client.login()
            installation = await get_plants(client)
            return await calls(installation)
        finally:
            await client.close()
    return asyncio.run(go())


def home(installation, demo):
    return next(p for p in installation.plants if p.id == demo.plant_id)


def test_plants_and_their_inverters(demo):
    async def calls(installation):
        return installation
    installation = run(demo, calls)
    plant = home(installation, demo)
    assert plant.name == demo.plant_name and isinstance(plant.status, int)
    assert [i.sn for i in plant.inverters] == [demo.sn]
    assert {i.sn for p in installation.plants for i in p.inverters} == demo.inverter_sns


def test_a_plant_updates_its_sensors(demo):
    async def calls(installation):
        plant = home(installation, demo)
        await plant.update()
        return plant
    plant = run(demo, calls)
    assert 0 < plant.state_of_charge <= 100
    assert plant.load_power > 0
    inverter = plant.inverters[0]
    assert inverter.acc_pv > 0 and inverter.acc_load > 0
    assert isinstance(inverter.acc_grid_import, decimal.Decimal)
    assert inverter.acc_battery_charge > 0
    assert inverter.pv_strings and all(s.last_update for s in inverter.pv_strings.values())
    assert 0 <= inverter.overnight_charge_cap <= 100


def test_the_whole_installation_updates(demo):
    """It reads the settings of every inverter (micro and grid-tied included) and expects a
    battery hybrid's keys: every read carries all of the original's."""
    async def calls(installation):
        await installation.update()
        return installation
    installation = run(demo, calls)
    inverters = [i for p in installation.plants for i in p.inverters]
    assert {i.sn for i in inverters} == demo.inverter_sns
    assert all(0 <= i.overnight_charge_cap <= 100 for i in inverters)


def test_the_overnight_charge_cap_is_set(demo):
    async def calls(installation):
        inverter = home(installation, demo).inverters[0]
        await inverter._get_settings()
        wanted = 60 if inverter.overnight_charge_cap != 60 else 70
        result = await inverter.set_overnight_charge_cap(wanted)

        async def read():
            await inverter._get_settings()
            return inverter.overnight_charge_cap
        return wanted, result, await eventually_async(read, wanted)
    wanted, result, read_back = run(demo, calls)
    assert result["success"] and read_back == wanted


def test_battery_charge_and_discharge_are_switched(demo):
    async def calls(installation):
        inverter = home(installation, demo).inverters[0]

        async def charge():
            await inverter._get_settings()
            return inverter.battery_charge_enabled, inverter.battery_discharge_enabled
        seen = []
        for switch, wanted in [
            (inverter.disable_battery_charge, (False, True)),
            (inverter.disable_battery_discharge, (False, False)),
            (inverter.enable_battery_charge, (True, False)),
            (inverter.enable_battery_discharge, (True, True)),
        ]:
            assert (await switch())["success"]
            seen.append((await eventually_async(charge, wanted), wanted))
        return seen
    for read_back, wanted in run(demo, calls):
        assert read_back == wanted


def test_the_work_mode_is_switched(demo):
    async def calls(installation):
        inverter = home(installation, demo).inverters[0]

        async def mode():
            return (await inverter._get_settings())["sysWorkMode"]
        assert (await inverter.set_sell_mode())["success"]
        sell = await eventually_async(mode, "0")
        assert (await inverter.set_battery_mode())["success"]
        return sell, await eventually_async(mode, "2")
    assert run(demo, calls) == ("0", "2")


async def eventually_async(read, wanted, timeout_s=40):
    """`conftest.eventually` for coroutines."""
    value = await read()
    for _ in range(timeout_s):
        if value == wanted:
            break
        await asyncio.sleep(1)
        value = await read()
    return value
