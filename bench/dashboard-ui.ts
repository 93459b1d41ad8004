/**
 * The dashboard's screens in headless Chromium over a business with 10,000 payments: each screen's
 * first paint and the moment its content is drawn (data loaded, no loading state left), opened cold
 * (empty browser cache) and warm, and the payments list's next page; next to the baseline measured in
 * the same run, the same GraphQL operation fetched alone from Node (what the screen cannot beat), so
 * the ratio is what the browser, the bundle and React add. Also prints the bundle's sizes
 * (dist/dashboard/bundle-report.json). BENCH_ONLY=dashboard-ui runs this section alone; skipped,
 * saying why, without Debian's Chromium or a built dashboard.
 * BENCH_UI_SCREENS=home,payments,… measures only those screens (names as printed);
 * BENCH_UI_AGAINST=<a copy of another build's dist/dashboard> measures that build too, in the same
 * run, each run of each figure alternating the two (the same load for both), and prints the ratio.
 * BENCH_UI_TRACE=1 traces each screen's last cold and warm load and prints its main thread's time per
 * kind of work (parsing, compiling, running scripts, style, layout, paint).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { CDPSession, chromium, Page } from 'playwright-core';
import { Mode } from '../src/domain/shared/modes';
import { RequestContext } from '../src/domain/shared/context';
import { PROJECT_ROOT } from '../src/project';
import { buildTesseraSchema } from '../src/graphql/schema';
import { buildApp } from '../src/server/app';
import { Runtime } from '../src/runtime';
import { percentile } from './util';

const CHROMIUM = '/usr/bin/chromium';

/** What the functions run in the page use of its globals (this program has no DOM types). */
interface PageNode {
  querySelector(selector: string): PageNode | null;
  getAttribute(name: string): string | null;
}
interface PageGlobals {
  document: PageNode;
  performance: { now(): number; getEntriesByName(name: string): Array<{ startTime: number }> };
  localStorage: { getItem(key: string): string | null };
}
interface BundleReport {
  files: Array<{ file: string; bytes: number; brotliBytes: number }>;
  totals: { bytes: number; brotliBytes: number; initialBytes: number; initialBrotliBytes: number };
}
const RUNS = Number(process.env.BENCH_UI_RUNS ?? 7);
const PAYMENTS = 10_000;
const EMAIL = 'bench-dashboard@example.com';
const PASSWORD = 'bench password 1';
const TARGET_MS = 300;
const ONLY_SCREENS = process.env.BENCH_UI_SCREENS?.split(',').map((name) => name.trim());
const AGAINST = process.env.BENCH_UI_AGAINST;
const BUILT = path.join(PROJECT_ROOT, 'dist', 'dashboard');

/** A build to measure: its page (index.html) and its routes' preloads, served in turn from dist/dashboard/ with every build's assets. */
interface Build {
  label: string;
  page: string;
  /** route-preloads.json, which the server reads to name a route's code in its page; null: the build has none. */
  preloads: string | null;
}

const readBuild = (label: string, folder: string): Build => ({
  label,
  page: fs.readFileSync(path.join(folder, 'index.html'), 'utf8'),
  preloads: fs.existsSync(path.join(folder, 'route-preloads.json'))
    ? fs.readFileSync(path.join(folder, 'route-preloads.json'), 'utf8')
    : null,
});

/**
 * The builds to measure: this one, and the one of BENCH_UI_AGAINST, whose assets join this build's
 * (hashed names: a name in both is the same file); `restore` puts dist/dashboard/ back as it was.
 */
function buildsToMeasure(): { builds: Build[]; serve: (build: Build) => void; restore: () => void } {
  const own = readBuild('this build', BUILT);
  const put = (build: Build) => {
    fs.writeFileSync(path.join(BUILT, 'index.html'), build.page);
    const preloads = path.join(BUILT, 'route-preloads.json');
    if (build.preloads === null) fs.rmSync(preloads, { force: true });
    else fs.writeFileSync(preloads, build.preloads);
  };
  if (!AGAINST) return { builds: [own], serve: () => undefined, restore: () => undefined };
  const added: string[] = [];
  for (const name of fs.readdirSync(path.join(AGAINST, 'assets'))) {
    const target = path.join(BUILT, 'assets', name);
    if (fs.existsSync(target)) continue;
    fs.copyFileSync(path.join(AGAINST, 'assets', name), target);
    added.push(target);
  }
  const other = readBuild(`against ${AGAINST}`, AGAINST);
  let served = own;
  return {
    builds: [other, own],
    serve: (build) => {
      if (build !== served) put(build);
      served = build;
    },
    restore: () => {
      put(own);
      for (const file of added) fs.rmSync(file, { force: true });
    },
  };
}

/**
 * Set in every page before its own scripts: the moment the screen is drawn (a heading in main and no
 * loading state: checked when the document changes, and timed at the next animation frame) and the
 * first contentful paint, as promises the bench awaits. In the page itself, not by Playwright's
 * polling, whose injected script the profile showed taking the page's main thread for hundreds of
 * milliseconds per load; and checked on changes, not at every frame, which kept the page drawing
 * frames while it loaded.
 */
function watchDrawn() {
  const page = globalThis as unknown as PageGlobals & {
    requestAnimationFrame(callback: () => void): void;
    MutationObserver: new (callback: () => void) => {
      observe(target: unknown, options: { childList: boolean; subtree: boolean }): void;
      disconnect(): void;
    };
    PerformanceObserver: new (
      callback: (list: { getEntries(): Array<{ name: string; startTime: number }> }) => void,
    ) => {
      observe(options: { type: string; buffered: boolean }): void;
    };
    __benchDrawn?: Promise<number>;
    __benchPaint?: Promise<number>;
  };
  page.__benchDrawn = new Promise((resolve) => {
    const isDrawn = () => {
      const main = page.document.querySelector('main');
      // A screen's heading is an h2 (the frame's h1 is the product's name, in the header); the
      // sign-in and sign-up screens, without the frame, have their own h1 in main.
      return Boolean(main?.querySelector('h1, h2') && !main.querySelector('[role="status"]'));
    };
    const watcher = new page.MutationObserver(() => {
      if (!isDrawn()) return;
      watcher.disconnect();
      page.requestAnimationFrame(() => resolve(page.performance.now()));
    });
    watcher.observe(page.document, { childList: true, subtree: true });
  });
  page.__benchPaint = new Promise((resolve) => {
    new page.PerformanceObserver((list) => {
      const paint = list.getEntries().find((entry) => entry.name === 'first-contentful-paint');
      if (paint) resolve(paint.startTime);
    }).observe({ type: 'paint', buffered: true });
  });
}

/**
 * A value the page's own script computes, read over the DevTools protocol: Playwright's `evaluate`
 * injects its utility script into each new document first, which (a profile showed) ran 20 ms on the
 * page's main thread while the screen was still loading.
 */
async function inPage(cdp: CDPSession, expression: string): Promise<number> {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.text}`);
  return Number(result.value);
}
const drawn = (cdp: CDPSession) => inPage(cdp, 'globalThis.__benchDrawn');
/** The first contentful paint, or NaN when Chromium reports none within a second of the screen drawn. */
const firstPaint = (cdp: CDPSession) =>
  inPage(
    cdp,
    'Promise.race([globalThis.__benchPaint, new Promise((resolve) => setTimeout(() => resolve(NaN), 1000))])',
  );

/** BENCH_UI_PROFILE=<dir>: each screen's last cold and warm load as a CPU profile (DevTools' Performance panel opens it). */
const PROFILE_DIR = process.env.BENCH_UI_PROFILE ? path.resolve(process.env.BENCH_UI_PROFILE) : '';
async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
}
/** Stops the profile once the screen is drawn and writes it (a build with `sourcemap` maps it to the sources). */
async function saveProfile(cdp: CDPSession, file: string): Promise<void> {
  await drawn(cdp);
  const { profile } = await cdp.send('Profiler.stop');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(profile));
}

/** The page's main thread: milliseconds of tasks run so far (Chromium's TaskDuration for the page's renderer). */
async function mainThreadBusy(cdp: CDPSession): Promise<number> {
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? NaN) * 1000;
}

/** BENCH_UI_WATERFALL: what the page loaded and when (ms from the navigation's start), for finding what a screen waits for. */
const waterfall = (page: Page) =>
  page.evaluate(() => {
    type Entry = { name: string; initiatorType: string; startTime: number; responseEnd: number; transferSize: number };
    const timing = (globalThis as unknown as { performance: { getEntriesByType(type: string): Entry[] } }).performance;
    const ms = (value: number) => value.toFixed(0);
    return timing
      .getEntriesByType('resource')
      .map(
        (entry) =>
          `${entry.initiatorType} ${entry.name.split('/').pop()} ${ms(entry.startTime)}-${ms(entry.responseEnd)} (${entry.transferSize} B)`,
      );
  });

/** The main-thread events BENCH_UI_TRACE sums, by name (Chromium's trace; some nest inside others). */
const TRACED = [
  'ParseHTML',
  'ParseAuthorStyleSheet',
  'EvaluateScript',
  'v8.evaluateModule',
  'v8.compile',
  'v8.compileModule',
  'FunctionCall',
  'RunMicrotasks',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'PrePaint',
  'Layerize',
];

/** BENCH_UI_TRACE: a trace of one load, summed per event name on the page's main thread (ms). */
function traceSummary(trace: Buffer): string {
  type Event = { name: string; ph: string; dur?: number; pid: number; tid: number; args?: { name?: string } };
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: Event[] }).traceEvents;
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const totals = new Map<string, number>();
  for (const event of events) {
    if (!main || event.pid !== main.pid || event.tid !== main.tid || event.ph !== 'X' || !TRACED.includes(event.name))
      continue;
    totals.set(event.name, (totals.get(event.name) ?? 0) + (event.dur ?? 0) / 1000);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
    .join(', ');
}

const PAYMENTS_PAGE = `query PaymentsList($first: Int, $after: String) { payments(first: $first, after: $after) {
  edges { node { id status email createdAt amount { amount currency } amountRefunded { amount currency } } }
  pageInfo { hasNextPage endCursor } } }`;

export async function benchDashboardUi(runtime: Runtime) {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`dashboard-ui: skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
    return;
  }
  execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'build-dashboard.js')], { stdio: 'inherit' });
  const report = JSON.parse(
    fs.readFileSync(path.join(PROJECT_ROOT, 'dist', 'dashboard', 'bundle-report.json'), 'utf8'),
  ) as BundleReport;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;
  console.log(
    `dashboard-ui: bundle: first load ${kb(report.totals.initialBytes)} (brotli ${kb(report.totals.initialBrotliBytes)}), ${report.files.length} files, ${kb(report.totals.bytes)} in all (brotli ${kb(report.totals.brotliBytes)}); largest: ${report.files
      .slice(0, 4)
      .map((file) => `${path.basename(file.file)} ${kb(file.brotliBytes)} br`)
      .join(', ')}`,
  );

  const { core } = runtime;
  const { business } = await core.identity.businesses.createBusinessWithOwnerAccount(core.anonymousContext(), {
    email: EMAIL,
    password: PASSWORD,
    name: 'Bench dashboard',
  });
  const merchant = new RequestContext(runtime.dataSource, { kind: 'system', name: 'bench' }, business.id, Mode.TEST);
  await merchant.em.query(
    `INSERT INTO payments (business_id, livemode, amount, currency, status, email, card_brand, card_last4,
       card_expiry_month, card_expiry_year, card_fingerprint, card_country, card_provider_ref, captured_at, created_at)
     SELECT $1, false, 100 + g % 5000, 'USD', (ARRAY['COMPLETED','SETTLED','SETTLED','FAILED'])[1 + g % 4]::payment_status,
            'payer' || (g % 500) || '@example.com', 'visa', '4242', 12, 2030, 'fp', 'US', 'ref',
            CASE WHEN g % 4 = 3 THEN NULL ELSE at + interval '2 seconds' END, at
       FROM (SELECT g, now() - (g * interval '60 days' / $2) AS at FROM generate_series(1, $2) g) s`,
    [business.id, PAYMENTS],
  );
  await merchant.em.query('ANALYZE payments');
  const [{ id: paymentId }]: Array<{ id: string }> = await merchant.em.query(
    'SELECT id FROM payments WHERE business_id = $1 ORDER BY created_at DESC LIMIT 1',
    [business.id],
  );

  const app = await buildApp(core, await buildTesseraSchema(core.pubSub));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const { builds, serve, restore } = buildsToMeasure();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.addInitScript(watchDrawn);
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/sign-in`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    const token = await page.evaluate(
      () =>
        (
          JSON.parse(
            (globalThis as unknown as PageGlobals).localStorage.getItem('tessera.dashboard.session') ?? '{}',
          ) as { token: string }
        ).token,
    );
    const cdp = await context.newCDPSession(page);

    // The baseline: the screen's own GraphQL operation, fetched alone from Node.
    const apiMs = async (variables: Record<string, unknown>) => {
      const samples: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const response = await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query: PAYMENTS_PAGE, variables }),
        });
        await response.json();
        samples.push(performance.now() - started);
      }
      return percentile(samples, 50);
    };

    // A visitor without a session, for the sign-in and sign-up screens (a signed-in one is sent on).
    const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await visitorContext.addInitScript(watchDrawn);
    const visitorPage = await visitorContext.newPage();
    const visitor = { page: visitorPage, cdp: await visitorContext.newCDPSession(visitorPage) };

    const screens: Array<[name: string, path: string, signedOut?: boolean]> = [
      ['home', '/dashboard'],
      ['payments', '/dashboard/payments'],
      ['a payment', `/dashboard/payments/${paymentId}`],
    ];
    // Every other screen in the navigation, as the sidebar lists it.
    const listed = await page.$$eval('nav[aria-label="Sections"] a', (links) =>
      links.map((link) => (link as unknown as { pathname: string }).pathname),
    );
    for (const href of listed)
      if (!screens.some(([, known]) => known === href)) screens.push([href.replace('/dashboard/', ''), href]);
    screens.push(['sign-in', '/dashboard/sign-in', true], ['sign-up', '/dashboard/sign-up', true]);

    const lines: string[] = [];
    /** Per build, the slowest screen's p50 of each figure: what the target is judged on. */
    const slowest = new Map<Build, Record<'paintCold' | 'paintWarm' | 'drawnCold' | 'drawnWarm', number>>();
    const p50 = (values: number[]) => percentile(values, 50).toFixed(0);

    // The floor, in the same run: the server's own page without a script (the landing page at /), its
    // first paint cold and warm. What a screen takes beyond it is the dashboard's; what it takes is
    // this machine's at this moment (the figures of one host moved by 2x from one session to the next).
    const bare = { cold: [] as number[], warm: [] as number[] };
    for (let run = 0; run < RUNS; run++) {
      for (const state of ['cold', 'warm'] as const) {
        if (state === 'cold') await cdp.send('Network.clearBrowserCache');
        await page.goto(`${base}/`);
        bare[state].push(await firstPaint(cdp));
      }
    }
    const bareCold = percentile(bare.cold, 50);
    lines.push(
      `dashboard-ui: the floor, a page of the server without scripts (/): first paint p50 cold ${p50(bare.cold)} / warm ${p50(bare.warm)} ms`,
    );
    const samples = () => new Map(builds.map((build) => [build, [] as number[]]));
    // The two builds take turns going first: a build always measured second read up to 1.16x the
    // other on the next page with the same build on both sides (session 38).
    const inTurn = (run: number) => (run % 2 === 0 ? builds : [...builds].reverse());
    const ratio = (values: Map<Build, number[]>) =>
      builds.length < 2
        ? ''
        : ` (${(percentile(values.get(builds[1])!, 50) / percentile(values.get(builds[0])!, 50)).toFixed(2)}× the other build)`;
    for (const [name, target, signedOut] of screens) {
      if (ONLY_SCREENS && !ONLY_SCREENS.includes(name)) continue;
      const tab = signedOut ? visitor : { page, cdp };
      const paint = { cold: samples(), warm: samples() };
      const ready = { cold: samples(), warm: samples() };
      const busy = { cold: samples(), warm: samples() };
      for (let run = 0; run < RUNS; run++) {
        for (const build of inTurn(run)) {
          serve(build);
          for (const state of ['cold', 'warm'] as const) {
            if (state === 'cold') await tab.cdp.send('Network.clearBrowserCache');
            const busyBefore = await mainThreadBusy(tab.cdp);
            const tracing = Boolean(process.env.BENCH_UI_TRACE) && run === RUNS - 1;
            if (tracing) await browser.startTracing(tab.page, { categories: ['devtools.timeline', 'v8', 'blink'] });
            const profiling = PROFILE_DIR && run === RUNS - 1;
            if (profiling) await startProfile(tab.cdp);
            await tab.page.goto(`${base}${target}`);
            if (profiling)
              await saveProfile(
                tab.cdp,
                path.join(PROFILE_DIR, `${`${build.label}-${name}-${state}`.replace(/[^\w.-]+/g, '_')}.cpuprofile`),
              );
            ready[state].get(build)!.push(await drawn(tab.cdp));
            if (tracing) {
              console.log(
                `dashboard-ui: ${name}, ${state}, ${build.label}, main thread until drawn (ms): ${traceSummary(await browser.stopTracing())}`,
              );
            }
            const busyAfter = await mainThreadBusy(tab.cdp);
            // A navigation that started a new renderer process starts its count at 0.
            busy[state].get(build)!.push(busyAfter >= busyBefore ? busyAfter - busyBefore : busyAfter);
            paint[state].get(build)!.push(await firstPaint(tab.cdp));
            if (process.env.BENCH_UI_WATERFALL && run === RUNS - 1) {
              console.log(
                `dashboard-ui: ${name}, ${state}, ${build.label}:\n  ${(await waterfall(tab.page)).join('\n  ')}`,
              );
            }
          }
        }
      }
      // The issue's target is each screen's first paint; "drawn" (its data on screen) is judged too.
      const verdict = (figures: { cold: Map<Build, number[]>; warm: Map<Build, number[]> }, build: Build) =>
        Math.max(percentile(figures.cold.get(build)!, 50), percentile(figures.warm.get(build)!, 50)) <= TARGET_MS
          ? `within ${TARGET_MS} ms`
          : `OVER ${TARGET_MS} ms`;
      for (const build of builds) {
        const drawnCold = percentile(ready.cold.get(build)!, 50);
        const worst = slowest.get(build) ?? { paintCold: 0, paintWarm: 0, drawnCold: 0, drawnWarm: 0 };
        slowest.set(build, {
          paintCold: Math.max(worst.paintCold, percentile(paint.cold.get(build)!, 50)),
          paintWarm: Math.max(worst.paintWarm, percentile(paint.warm.get(build)!, 50)),
          drawnCold: Math.max(worst.drawnCold, drawnCold),
          drawnWarm: Math.max(worst.drawnWarm, percentile(ready.warm.get(build)!, 50)),
        });
        lines.push(
          `dashboard-ui: ${name}${builds.length > 1 ? ` [${build.label}]` : ''}: first paint p50 cold ${p50(paint.cold.get(build)!)} / warm ${p50(paint.warm.get(build)!)} ms ${verdict(paint, build)}; drawn p50 cold ${drawnCold.toFixed(0)} / warm ${p50(ready.warm.get(build)!)} ms ${verdict(ready, build)} (cold: ${(drawnCold / bareCold).toFixed(1)}× the floor); main thread busy ${p50(busy.cold.get(build)!)} / ${p50(busy.warm.get(build)!)} ms`,
        );
      }
      if (builds.length > 1) {
        lines.push(
          `dashboard-ui: ${name}: drawn cold${ratio(ready.cold)}, warm${ratio(ready.warm)}; main thread busy cold${ratio(busy.cold)}, warm${ratio(busy.warm)}`,
        );
      }
    }

    for (const [build, worst] of slowest) {
      const judged = (ms: number) => `${ms.toFixed(0)} ms (${ms <= TARGET_MS ? 'within' : 'OVER'} ${TARGET_MS})`;
      lines.push(
        `dashboard-ui: the slowest screen${builds.length > 1 ? ` [${build.label}]` : ''}: first paint cold ${judged(worst.paintCold)}, warm ${judged(worst.paintWarm)}; drawn cold ${judged(worst.drawnCold)}, warm ${judged(worst.drawnWarm)}`,
      );
    }

    // The payments list's next page: from the click to the new page's rows.
    const nextPage = samples();
    for (let run = 0; run < RUNS; run++) {
      for (const build of inTurn(run)) {
        serve(build);
        await page.goto(`${base}/dashboard/payments`);
        await drawn(cdp);
        const first = await page.locator('tbody tr').first().getAttribute('data-row-id');
        const started = await page.evaluate(() => (globalThis as unknown as PageGlobals).performance.now());
        await page.getByRole('button', { name: 'Next' }).click();
        const shown = await page.waitForFunction(
          (previous) => {
            const row = (globalThis as unknown as PageGlobals).document.querySelector('tbody tr');
            return row && row.getAttribute('data-row-id') !== previous
              ? (globalThis as unknown as PageGlobals).performance.now()
              : false;
          },
          first,
          { polling: 'raf', timeout: 60_000 },
        );
        nextPage.get(build)!.push(Number(await shown.jsonValue()) - started);
      }
    }
    const baseline = await apiMs({ first: 25 });
    for (const build of builds) {
      const nextMs = percentile(nextPage.get(build)!, 50);
      lines.push(
        `dashboard-ui: payments list, next page of 25${builds.length > 1 ? ` [${build.label}]` : ''}: p50 ${nextMs.toFixed(0)} ms from the click to its rows ${nextMs <= TARGET_MS ? 'within' : 'OVER'} ${TARGET_MS} ms; the same query alone from Node: p50 ${baseline.toFixed(1)} ms (${(nextMs / baseline).toFixed(1)}× the bare API)`,
      );
    }
    if (builds.length > 1) lines.push(`dashboard-ui: next page:${ratio(nextPage)}`);
    for (const line of lines) console.log(line);
    console.log(
      `dashboard-ui: ${PAYMENTS.toLocaleString('en-US')} payments, ${RUNS} runs per figure, Chromium headless on ${os.cpus().length} cores; "drawn": a heading in main and no loading state, from the navigation's start`,
    );
  } finally {
    await browser.close();
    await app.close();
    restore();
  }
}
