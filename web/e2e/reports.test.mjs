// Reports against the demo server: the demo owner opens a plant's report of last month from the
// reports list, prints it to PDF with chromium (every page A4, as many pages as the report lays
// out), and reads on the page and in the .xlsx download the figures GET /report/plant/{id}
// answers. The other tabs load the demo's data (dynamic data of an inverter, inverter and
// battery events), predicted generation imports row by row from a sheet, the plant overview's
// month bars show the demo's predictions with the ratio, and another owner gets no report of
// the demo plant.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { api, choose, launch, newPage, signIn } from './browser.mjs';
import { DEMO, startDemoServer } from './demo.mjs';
import { USERS } from './server.mjs';
import { xlsx } from './xlsx.mjs';

/** The entries of a zip (stored or deflated), by name. */
function unzip(buf) {
  const files = {};
  let end = buf.length - 22;
  while (end >= 0 && buf.readUInt32LE(end) !== 0x06054b50) end -= 1;
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  for (let i = 0; i < count; i += 1) {
    const method = buf.readUInt16LE(at + 10);
    const size = buf.readUInt32LE(at + 20);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    files[name] = (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    at += 46 + nameLen + extraLen + commentLen;
  }
  return files;
}

const unescape = (s) =>
  s.replace(
    /&(lt|gt|amp|quot|apos);/g,
    (_, e) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e],
  );

/** The sheets of an .xlsx by name: rows of cells (numbers as numbers, text as text). */
function readXlsx(buf) {
  const files = unzip(buf);
  const shared = [...(files['xl/sharedStrings.xml'] ?? '').matchAll(/<si>([\s\S]*?)<\/si>/g)].map(
    (m) => unescape([...m[1].matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join('')),
  );
  const rels = Object.fromEntries(
    [...files['xl/_rels/workbook.xml.rels'].matchAll(/<Relationship [^>]*>/g)].map((m) => [
      /Id="([^"]+)"/.exec(m[0])[1],
      /Target="([^"]+)"/.exec(m[0])[1].replace(/^\/?(xl\/)?/, 'xl/'),
    ]),
  );
  const sheets = {};
  for (const m of files['xl/workbook.xml'].matchAll(/<sheet [^>]*>/g)) {
    const name = unescape(/name="([^"]*)"/.exec(m[0])[1]);
    const xml = files[rels[/r:id="([^"]+)"/.exec(m[0])[1]]];
    sheets[name] = [...xml.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)].map((row) =>
      [...row[1].matchAll(/<c ([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)].map((c) => {
        const type = /t="([^"]+)"/.exec(c[1])?.[1];
        const v = /<v>([\s\S]*?)<\/v>/.exec(c[2] ?? '')?.[1];
        if (type === 's') return shared[Number(v)];
        if (type === 'inlineStr') return unescape(/<t[^>]*>([\s\S]*?)<\/t>/.exec(c[2])?.[1] ?? '');
        if (type === 'str' || type === 'b') return v === undefined ? '' : unescape(v);
        return v === undefined ? null : Number(v);
      }),
    );
  }
  return sheets;
}

/** Pages of a PDF chromium wrote, each with its media box (points). */
function pdfPages(buf) {
  const text = buf.toString('latin1');
  const pages = [...text.matchAll(/\/Type\s*\/Page(?![s\w])/g)].length;
  const boxes = [...text.matchAll(/\/MediaBox\s*\[\s*([\d.\s-]+)\]/g)].map((m) =>
    m[1].trim().split(/\s+/).map(Number),
  );
  return { pages, boxes };
}

const near = (a, b) => Math.abs(a - b) < 0.006;
const fixed2 = (v) => v.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const ENERGY = ['produced', 'consumed', 'imported', 'exported', 'charged', 'discharged'];

function lastMonth() {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 7);
}

describe('reports', () => {
  let server;
  let browser;
  before(async () => {
    server = await startDemoServer('portal-e2e-reports-');
    browser = await launch();
    // the demo writes its history after the server starts listening: last month's figures
    // change until it is written
    const deadline = Date.now() + 240_000;
    while (!server.log().includes('demo history written')) {
      if (Date.now() > deadline) throw new Error(`no demo history:\n${server.log()}`);
      await new Promise((res) => setTimeout(res, 1000));
    }
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("prints a plant's month report on A4 pages with the figures of the API and the xlsx", async () => {
    const { context, page } = await newPage(browser, { acceptDownloads: true });
    await signIn(page, server.url, DEMO);
    const plants = await api(page, '/api/v1/plants?page=1&limit=100');
    assert.equal(plants.code, 0, JSON.stringify(plants));
    const plant = plants.data.infos[0];
    assert.ok(plant, 'the demo owner has a plant');

    // ---- the reports list opens on plant reports; the form opens the report
    await page.goto(`${server.url}/workdata`);
    await page.waitForURL(/\/workdata\/list/);
    await page.getByTestId('workdata-title').waitFor();
    assert.equal(
      await page
        .locator('[data-testid="side-menu"] .ant-menu-item-selected')
        .getAttribute('data-menu-key'),
      '/workdata/list',
    );
    await choose(page, page.getByTestId('report-plant'), plant.name);
    await page.getByTestId('report-open').click();
    await page.waitForURL(
      new RegExp(`/workdata/info/${plant.id}\\?type=month&date=\\d{4}-\\d{2}$`),
    );
    await page.getByTestId('report-sheets').waitFor();
    // the report page still highlights the reports item
    assert.equal(
      await page
        .locator('[data-testid="side-menu"] .ant-menu-item-selected')
        .getAttribute('data-menu-key'),
      '/workdata/list',
    );

    // ---- last month: complete, so the page, the API and the file read the same figures
    const month = lastMonth();
    // ingest may still be rolling the history up: read until two answers agree
    const url = `/api/v1/report/plant/${plant.id}?type=month&date=${month}`;
    let previous = null;
    for (let i = 0; i < 60; i += 1) {
      const produced = (await api(page, url)).data?.summary.produced;
      if (produced !== undefined && produced === previous) break;
      previous = produced;
      await page.waitForTimeout(2000);
    }
    await page.goto(`${server.url}/workdata/info/${plant.id}?type=month&date=${month}`);
    await page.getByTestId('report-title').waitFor();
    const answer = await api(page, url);
    assert.equal(answer.code, 0, JSON.stringify(answer));
    const report = answer.data;
    assert.ok(report.summary.produced > 0, `produced ${report.summary.produced}`);
    const figures = Object.fromEntries(
      await page
        .getByTestId('report-figure')
        .evaluateAll((els) =>
          els.map((el) => [
            el.getAttribute('data-key'),
            { value: el.getAttribute('data-value'), text: el.querySelector('.value').textContent },
          ]),
        ),
    );
    for (const key of ['produced', 'consumed', 'imported', 'exported']) {
      assert.equal(Number(figures[key].value), report.summary[key], key);
      assert.equal(figures[key].text, `${fixed2(report.summary[key])} kWh`, key);
    }
    for (const key of ['selfConsumption', 'selfSufficiency', 'income', 'peakPower']) {
      const want = report.summary[key];
      assert.equal(figures[key].value === '' ? null : Number(figures[key].value), want, key);
    }
    // the energy table: one row per day of the month, each cell as the API's
    const rows = await page.getByTestId('report-energy-row').evaluateAll((els) =>
      els.map((el) => ({
        label: el.getAttribute('data-label'),
        cells: Object.fromEntries(
          [...el.querySelectorAll('td[data-key]')].map((td) => [
            td.getAttribute('data-key'),
            td.textContent,
          ]),
        ),
      })),
    );
    assert.equal(rows.length, report.energy.length);
    for (const [i, row] of rows.entries()) {
      const want = report.energy[i];
      assert.equal(row.label, want.label);
      for (const [key, text] of Object.entries(row.cells)) {
        assert.equal(text, want[key] === null ? '--' : fixed2(want[key]), `${want.label} ${key}`);
      }
    }

    // ---- print to PDF: every page A4, one per laid-out sheet
    const laidOut = Number(await page.getByTestId('report-sheets').getAttribute('data-pages'));
    const expected = 2 + Math.max(1, Math.ceil(report.events.length / 28));
    assert.equal(laidOut, expected, `${report.events.length} events`);
    await page.waitForTimeout(500);
    const pdf = pdfPages(await page.pdf({ preferCSSPageSize: true, printBackground: true }));
    assert.equal(pdf.pages, expected, JSON.stringify(pdf));
    assert.equal(pdf.boxes.length, pdf.pages);
    for (const [, , w, h] of pdf.boxes) {
      assert.ok(Math.abs(w - 595) < 1 && Math.abs(h - 842) < 1, `page of ${w} x ${h} pt`);
    }

    // ---- the xlsx: Summary, Energy and Events with the same figures
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('report-download').click(),
    ]);
    const book = readXlsx(readFileSync(await download.path()));
    const names = Object.keys(book);
    for (const sheet of ['Summary', 'Energy', 'Events'])
      assert.ok(names.includes(sheet), names.join());
    const numbers = (sheet) => book[sheet].flat().filter((v) => typeof v === 'number');
    for (const key of ENERGY) {
      assert.ok(
        numbers('Summary').some((v) => near(v, report.summary[key])),
        `Summary ${key} ${report.summary[key]}`,
      );
    }
    for (const e of report.energy) {
      const row = book.Energy.find((r) => String(r[0] ?? '').endsWith(e.label));
      assert.ok(row, `Energy row ${e.label}`);
      for (const key of ['produced', 'consumed']) {
        if (e[key] !== null) assert.ok(row.some((v) => typeof v === 'number' && near(v, e[key])));
      }
    }
    assert.equal(book.Events.length - 1, report.events.length);
    await context.close();
  });

  it('loads dynamic data and events of the demo, imports predictions, shows them on the overview', async () => {
    const { context, page } = await newPage(browser, { acceptDownloads: true });
    await signIn(page, server.url, DEMO);
    const plant = (await api(page, '/api/v1/plants?page=1&limit=100')).data.infos[0];
    const devices = (await api(page, `/api/v1/plant/${plant.id}/devices`)).data;
    const inverter = devices.find((d) => d.family === 'inverter');

    // ---- dynamic data of an inverter: today's reports, every column
    await page.goto(
      `${server.url}/workdata/list?tab=dynamic&plantId=${plant.id}&sn=${inverter.sn}`,
    );
    const samples = page.locator('[data-testid="dynamic-table"] tr.ant-table-row');
    await samples.first().waitFor({ timeout: 30_000 });
    assert.ok((await samples.count()) > 0);

    // ---- inverter events: the demo's history, with the download
    await page.getByTestId('workdata-tab-inverter').click();
    await page.waitForURL(/tab=inverter/);
    const events = await api(page, '/api/v1/workdata/event?page=1&limit=20');
    const eventRows = page.locator('[data-testid="inverter-event-table"] tr.ant-table-row');
    if (events.data.total > 0) {
      await eventRows.first().waitFor();
      assert.equal(await eventRows.count(), Math.min(20, events.data.total));
    } else {
      await page.getByText('No events yet').waitFor();
    }
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('inverter-events-download').click(),
    ]);
    assert.equal(file.suggestedFilename().endsWith('.xlsx'), true);

    // ---- battery events: their own list
    await page.getByTestId('workdata-tab-battery').click();
    const battery = await api(page, '/api/v1/workdata/battery/event?page=1&limit=20');
    if (battery.data.total > 0) {
      await page.locator('[data-testid="battery-event-table"] tr.ant-table-row').first().waitFor();
    } else {
      await page.getByTestId('battery-events-tab').getByText('No events yet').waitFor();
    }

    // ---- predicted generation: a good row and a bad one, checked, then imported
    const year = new Date().getUTCFullYear() + 1;
    const sheet = xlsx([
      ['Plant ID', 'Year', 'Month', 'Day', 'Expected kWh'],
      [String(plant.id), String(year), '1', '', '500'],
      [String(plant.id), String(year), '13', '', '100'],
    ]);
    await page.getByTestId('predicted-import').click();
    const dialog = page.getByTestId('predicted-dialog');
    await dialog.waitFor();
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'predicted.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: sheet,
    });
    await dialog.getByTestId('predicted-file').waitFor();
    await page.getByTestId('predicted-check').click();
    await dialog.getByTestId('predicted-preview').waitFor();
    const checked = await dialog
      .getByTestId('predicted-row-result')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-success')));
    assert.deepEqual(checked, ['true', 'false']);
    const before = await api(page, `/api/v1/plant/${plant.id}/predicted?year=${year}`);
    assert.deepEqual(before.data, [], 'a dry run writes nothing');
    await page.getByTestId('predicted-run').click();
    await dialog.getByTestId('predicted-result').waitFor();
    const stored = await api(page, `/api/v1/plant/${plant.id}/predicted?year=${year}`);
    assert.ok(
      stored.data.some((p) => p.month === 1 && p.kwh === 500),
      JSON.stringify(stored.data),
    );
    await page.getByTestId('predicted-close').click();

    // ---- the overview's month bars: the demo's predictions beside PV, with the ratio
    await page.goto(`${server.url}/plants/overview/${plant.id}/${plant.type}`);
    const chart = page.getByTestId('energy-chart');
    await chart.waitFor();
    const [monthAnswer] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/v1/plant/energy/${plant.id}/month`)),
      chart.getByText('Month', { exact: true }).click(),
    ]);
    await chart.getByTestId('chart-month').waitFor();
    await chart.getByTestId('chart-predicted-ratio').waitFor();
    const ratio = Number(
      await chart.getByTestId('chart-predicted-ratio').getAttribute('data-ratio'),
    );
    // The month's PV so far over its predictions for the same days: in a month's first minutes
    // (night) the PV, and so the ratio, is still 0.
    const series = (await monthAnswer.json()).data.infos;
    const byLabel = (label) => series.find((s) => s.label === label).records;
    const pv = new Map(byLabel('pv').map((r) => [r.time, Number(r.value)]));
    let actual = 0;
    let predicted = 0;
    for (const r of byLabel('predicted')) {
      if (r.value === '' || !pv.has(r.time)) continue;
      actual += pv.get(r.time);
      predicted += Number(r.value);
    }
    assert.ok(predicted > 0, 'the demo predicts every month');
    assert.equal(ratio.toFixed(1), ((actual / predicted) * 100).toFixed(1));
    if (actual > 0) assert.ok(ratio > 0, `ratio ${ratio}`);
    await context.close();
  });

  it("gives another owner no report of the demo's plant", async () => {
    const demo = await newPage(browser);
    await signIn(demo.page, server.url, DEMO);
    const plant = (await api(demo.page, '/api/v1/plants?page=1&limit=1')).data.infos[0];
    await demo.context.close();

    const { context, page } = await newPage(browser);
    await signIn(page, server.url, USERS.owner);
    const answer = await api(
      page,
      `/api/v1/report/plant/${plant.id}?type=month&date=${lastMonth()}`,
    );
    assert.notEqual(answer.code, 0);
    await page.goto(`${server.url}/workdata/info/${plant.id}?type=month&date=${lastMonth()}`);
    await page.getByTestId('report-error').waitFor();
    await context.close();
  });
});
