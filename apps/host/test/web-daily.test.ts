import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type UntilProbe, until } from '@orca/testkit';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { installHooks } from '../src/agent-hooks/install-hooks.ts';
import { demoAgentPath } from '../src/demo/demo-agent-path.ts';
import { connectRuntime, type RuntimeClient } from '../src/rpc/client.ts';
import { recordNotifications, shownNotifications } from './browser-notifications.ts';
import { runOrca, type StartedHost, startOrca } from './cli-process.ts';
import { openRawWebSocket } from './raw-websocket.ts';

/** Debian's Chromium (`.ci/run` installs it); nothing is downloaded. */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.log(`skipping the web daily-use tests: ${CHROMIUM} is absent (apt-get install chromium)`);

const shots = mkdtempSync(join(tmpdir(), 'orca-web-daily-screens-'));

function waitFor<T>(what: string, probe: UntilProbe<T>): Promise<T> {
  return until(what, probe, { timeoutMs: 60_000 });
}

/** A free loopback port (the host is started again on it, as a user's bookmark expects). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const connectionOf = (page: Page): Promise<string | null> =>
  page
    .locator('main')
    .getAttribute('data-connection')
    .catch(() => null);

async function rowStatus(page: Page, handle: string): Promise<string> {
  return page
    .evaluate(
      (h) => document.querySelector(`tr[data-handle="${CSS.escape(h)}"]`)?.getAttribute('data-status') ?? '',
      handle,
    )
    .catch(() => '');
}

describe.skipIf(!hasChromium)('the web board for daily use (real Chromium, real orca start --web)', () => {
  let root: string;
  let dataDir: string;
  let home: string;
  let port: number;
  let host: StartedHost;
  let origin: string;
  let client: RuntimeClient;
  let browser: Browser;

  const pairUrl = async (): Promise<string> => {
    const r = await runOrca(['--json', '--data-dir', dataDir, 'web', 'pair', '--no-qr']);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { url: string }).url;
  };
  const sessions = async (): Promise<{ id: string; lastUsedAt: number }[]> => {
    const r = await runOrca(['--json', '--data-dir', dataDir, 'web', 'sessions']);
    return (JSON.parse(r.stdout) as { sessions: { id: string; lastUsedAt: number }[] }).sessions;
  };
  const pairedPage = async (): Promise<{ page: Page; token: string }> => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(await pairUrl());
    await waitFor('paired', async () => (await connectionOf(page)) === 'ready');
    const token = (await page.evaluate(() => sessionStorage.getItem('orca.sessionToken'))) ?? '';
    return { page, token };
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'orca-web-daily-'));
    dataDir = join(root, 'data');
    home = join(root, 'home');
    await installHooks({ home, agents: ['claude'], agentVersions: { claude: '2.1.80' } });
    port = await freePort();
    host = await startOrca(dataDir, ['--web', `127.0.0.1:${port}`]);
    origin = `http://127.0.0.1:${port}`;
    client = await connectRuntime(dataDir);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    console.log(`web daily-use screenshots: ${shots}`);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    client?.close();
    await host?.stop();
  }, 120_000);

  it('8: the empty board names real commands; the page has a favicon', async () => {
    const { page } = await pairedPage();
    const empty = (await page.locator('p.empty').textContent()) ?? '';
    expect(empty).toContain('orca run');
    expect(empty).not.toContain('orca terminal create');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('./favicon.svg');
    expect((await fetch(`${origin}/favicon.svg`)).status).toBe(200);
    await page.context().close();
  }, 120_000);

  it('orca web pair prints a one-time link with its expiry and a QR code; bad durations are usage errors', async () => {
    const human = await runOrca(['--data-dir', dataDir, 'web', 'pair', '--expires', '5m']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`open ${origin.replace(/[.]/g, '\\.')}/#pair=[A-Za-z0-9_-]{24}\n`));
    expect(human.stdout).toMatch(/one-time link; unused, it expires at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/);
    // The QR code: half-block characters, rows of equal width.
    const qr = human.stdout.split('\n').filter((l) => /[▀▄█]/.test(l));
    expect(qr.length).toBeGreaterThan(10);
    expect(new Set(qr.map((l) => l.length)).size).toBe(1);
    const tooLong = await runOrca(['--data-dir', dataDir, 'web', 'pair', '--expires', '3d']);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toMatch(/at most 24h/);
    const junk = await runOrca(['--data-dir', dataDir, 'web', 'pair', '--expires', 'soon']);
    expect(junk.code).toBe(2);
  }, 120_000);

  it('7: a failed start is reported as a failure; a shell shows as shell, an exited pane its exit code; clear exited', async () => {
    const { page } = await pairedPage();
    await page.locator('.create-pane input[name="name"]').fill('typo');
    await page.locator('.create-pane input[name="argv"]').fill('no-such-agent-cli --yes');
    await page.locator('.create-pane button').click();
    await waitFor(
      'the failure',
      async () => (await page.locator('.create-result').getAttribute('data-outcome')) === 'failed',
    );
    expect(await page.locator('.create-result').textContent()).toMatch(/failed to start .*command not found/);
    await page.locator('.create-pane input[name="argv"]').fill('/bin/sh');
    await page.locator('.create-pane input[name="cwd"]').fill(join(root, 'missing-dir'));
    await page.locator('.create-pane button').click();
    await waitFor('the cwd failure', async () =>
      ((await page.locator('.create-result').textContent()) ?? '').includes('does not exist'),
    );
    await page.locator('.create-pane input[name="cwd"]').fill('');
    await page.locator('.create-pane input[name="name"]').fill('plain-shell');
    await page.locator('.create-pane input[name="argv"]').fill('/bin/bash --norc');
    await page.locator('.create-pane button').click();
    await waitFor(
      'created',
      async () => (await page.locator('.create-result').getAttribute('data-outcome')) === 'created',
    );
    expect(await page.locator('.create-result').textContent()).toMatch(/^created plain-shell \(pane-[0-9a-f]+\)$/);
    const shell = (await client.call('terminal.list')).panes.find((p) => p.name === 'plain-shell');
    expect(shell?.command).toBe('bash');
    await waitFor('shown as shell', async () => (await rowStatus(page, shell?.handle ?? '')) === 'shell');
    const quitter = await client.call('terminal.create', {
      argv: ['/bin/sh', '-c', 'exit 3'],
      cwd: '/',
      name: 'quitter',
    });
    await waitFor('exited', async () => (await rowStatus(page, quitter.handle)) === 'exited');
    expect(await page.locator(`tr[data-handle="${quitter.handle}"] .exit-code`).textContent()).toBe('exit 3');
    await page.locator('button.clear-exited').click();
    await waitFor('cleared', async () => (await page.locator(`tr[data-handle="${quitter.handle}"]`).count()) === 0);
    // The shell pane has no prompt box: no agent runs there.
    await page.locator(`tr[data-handle="${shell?.handle}"] button.open`).click();
    await waitFor('the pane view', async () => (await page.locator('.pane-header').count()) === 1);
    expect(await page.locator('.prompt-box').count()).toBe(0);
    expect(await page.locator('.no-prompt').textContent()).toMatch(/No agent runs in this pane/);
    expect(await page.locator('.pane-header .pane-name').textContent()).toBe('plain-shell');
    await page.context().close();
  }, 120_000);

  it('5: a malformed fragment shows an error and the board', async () => {
    const { page, token } = await pairedPage();
    const fresh = await page.context().newPage();
    await fresh.addInitScript((t) => sessionStorage.setItem('orca.sessionToken', t), token);
    const errors: string[] = [];
    fresh.on('pageerror', (e) => errors.push(e.message));
    await fresh.goto(`${origin}/#pane=%E0%A4%A`);
    await waitFor('the error notice', async () => (await fresh.locator('.bad-link').count()) === 1);
    expect(await fresh.locator('.bad-link').textContent()).toMatch(/malformed/);
    await waitFor('the board', async () => (await fresh.locator('.board-tools').count()) === 1);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('6: opening a pane shows its scrollback back to its first line, in colour; find and copy work', async () => {
    const { page } = await pairedPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    // A pane that printed a coloured first line, then 4,500 more, then stays.
    const lines = await client.call('terminal.create', {
      argv: [
        '/bin/sh',
        '-c',
        `printf '\\033[31mfirst-line-marker\\033[0m\\n'; i=1; while [ $i -le 4500 ]; do echo "row $i"; i=$((i+1)); done; sleep 600`,
      ],
      cwd: '/',
      name: 'history',
    });
    await waitFor('all printed', async () =>
      ((await client.call('terminal.show', { handle: lines.handle })).tail ?? '').includes('row 4500'),
    );
    await page.goto(`${origin}/#pane=${encodeURIComponent(lines.handle)}`);
    await waitFor(
      'history loaded',
      async () => (await page.locator('section.pane').getAttribute('data-history')) === 'loaded',
    );
    await page.locator('.term-search input').fill('first-line-marker');
    await page.locator('.term-search input').press('Enter');
    await waitFor('found', async () => (await page.locator('.find-result').getAttribute('data-found')) === 'found');
    // The match scrolled into view: the first line is on screen, in red (the DOM renderer's fg class).
    const red = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.xterm-rows span')).some(
        (s) => s.textContent?.includes('first-line-marker') && /xterm-fg-1\b/.test(s.className),
      ),
    );
    expect(red).toBe(true);
    await page.screenshot({ path: join(shots, 'scrollback-first-line.png') });
    // The search selected the match; copy puts it on the clipboard.
    await page.locator('button.copy-selection').click();
    await waitFor('copied', async () =>
      ((await page.locator('.copy-result').textContent()) ?? '').startsWith('copied'),
    );
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('first-line-marker');
    await page.locator('.term-search input').fill('no such text anywhere');
    await page.locator('.term-search input').press('Enter');
    await waitFor('no match', async () => (await page.locator('.find-result').getAttribute('data-found')) === 'none');
    await page.context().close();
  }, 120_000);

  it('keys: from the board to the waiting pane and back, the filter, the prompt box', async () => {
    const agent = await client.call('terminal.create', {
      argv: [process.execPath, demoAgentPath()],
      cwd: home,
      name: 'waiter',
      env: { HOME: home, ORCA_DEMO_TOOL: 'keyword:approve', ORCA_DEMO_REPLY_MS: '300' },
    });
    const idle = await client.call('terminal.create', {
      argv: ['/bin/sh', '-c', 'sleep 600'],
      cwd: '/',
      name: 'sleeper',
    });
    await waitFor('the agent idle', async () => {
      const v = await client.call('terminal.show', { handle: agent.handle });
      return v.isRunningAgent && v.status === 'idle';
    });
    await client.call('terminal.dispatch', { handle: agent.handle, inject: 'approve the deploy' });
    const { page } = await pairedPage();
    await waitFor('waiting on the board', async () => (await rowStatus(page, agent.handle)) === 'waiting');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('n');
    await waitFor('the waiting pane open', async () => new URL(page.url()).hash === `#pane=${agent.handle}`);
    expect(await page.locator('.pane-header .pane-name').textContent()).toBe('waiter');
    await page.screenshot({ path: join(shots, 'keys-waiting-pane.png') });
    // The terminal has the keys (Esc is the agent's); outside it, p focuses the prompt box.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await page.locator('.pane-header .pane-cwd').click();
    await page.keyboard.press('p');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('prompt');
    await page.keyboard.press('t');
    expect(await page.locator('.prompt-box input').inputValue()).toBe('t');
    await page.locator('.prompt-box input').fill('');
    // From inside the terminal, Ctrl+] leaves for the board (as it detaches `orca attach`).
    await page.locator('.pane-terminal').click();
    await page.keyboard.press('Control+BracketRight');
    await waitFor('back on the board', async () => (await page.locator('table.board').count()) === 1);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const selected = await page.locator('tr[aria-selected="true"]').getAttribute('data-handle');
    expect(selected).not.toBeNull();
    await page.keyboard.press('/');
    await page.keyboard.type('sleeper');
    await waitFor('filtered', async () => (await page.locator('table.board tbody tr').count()) === 1);
    expect(await page.locator('table.board tbody tr').getAttribute('data-handle')).toBe(idle.handle);
    await page.screenshot({ path: join(shots, 'keys-board-filter.png') });
    await page.locator('input.board-filter').press('Escape');
    await page.keyboard.press('k');
    await page.keyboard.press('Enter');
    await waitFor('opened by Enter', async () => new URL(page.url()).hash === `#pane=${idle.handle}`);
    // Esc outside the terminal goes back too.
    await page.locator('.pane-header .pane-cwd').click();
    await page.keyboard.press('Escape');
    await waitFor('back by Esc', async () => (await page.locator('table.board').count()) === 1);
    await client.call('terminal.send', { handle: agent.handle, text: 'y' }).catch(() => undefined);
    await page.context().close();
  }, 120_000);

  it('needs you: the host tells the open board once per wait (notification, banner); answered, the line turns resolved', async () => {
    const agent = await client.call('terminal.create', {
      argv: [process.execPath, demoAgentPath()],
      cwd: home,
      name: 'asker',
      env: { HOME: home, ORCA_DEMO_TOOL: 'keyword:approve', ORCA_DEMO_REPLY_MS: '300' },
    });
    const context = await browser.newContext();
    await recordNotifications(context, origin);
    const page = await context.newPage();
    await page.goto(await pairUrl());
    await waitFor('paired', async () => (await connectionOf(page)) === 'ready');
    await page.locator('label.notify input').check();
    await waitFor('the agent idle', async () => {
      const v = await client.call('terminal.show', { handle: agent.handle });
      return v.isRunningAgent && v.status === 'idle';
    });
    await client.call('terminal.dispatch', { handle: agent.handle, inject: 'approve the release' });
    await waitFor(
      'the banner line',
      async () => (await page.locator('.needs-you li[data-state="open"]').count()) === 1,
    );
    expect(await page.locator('.needs-you li[data-state="open"]').textContent()).toMatch(
      /^asker \(claude\) is waiting for you/,
    );
    const shown = await shownNotifications(page);
    expect(shown).toEqual([expect.stringMatching(/^asker needs you \| asker \(claude\) is waiting for you/)]);
    await page.screenshot({ path: join(shots, 'needs-you.png') });
    // The banner line opens the pane; its "why?" names the rule and evidence of the wait.
    await page.locator('.needs-you li[data-state="open"] button.open-waiting').click();
    await waitFor('the pane view', async () => (await page.locator('.pane-header').count()) === 1);
    await page.locator('.pane-header button.why').click();
    await waitFor('the explanation', async () => (await page.locator('.why-list li').count()) > 0);
    const why = (await page.locator('.why-list li').first().textContent()) ?? '';
    expect(why).toMatch(/→ permission/);
    expect(await page.locator('.why-list li').first().getAttribute('data-rule')).toMatch(
      /^(screen-prompt|hook-row|title-asks-permission)$/,
    );
    await page.screenshot({ path: join(shots, 'why.png') });
    await client.call('terminal.send', { handle: agent.handle, text: 'y' });
    await waitFor('resolved', async () => (await page.locator('.needs-you li[data-state="resolved"]').count()) === 1);
    expect(await page.locator('.needs-you li[data-state="resolved"]').textContent()).toMatch(
      /no longer waits.*answered/,
    );
    await page.screenshot({ path: join(shots, 'needs-you-resolved.png') });
    // One notification for the one wait.
    expect(await shownNotifications(page)).toHaveLength(1);
    const log = await runOrca(['--json', '--data-dir', dataDir, 'notify', 'log']);
    const attempts = (JSON.parse(log.stdout) as { attempts: { sink: string; kind: string; outcome: string }[] })
      .attempts;
    expect(attempts.filter((a) => a.sink === 'board' && a.outcome === 'delivered').map((a) => a.kind)).toEqual(
      expect.arrayContaining(['waiting', 'resolved']),
    );
    await context.close();
  }, 120_000);

  it('3: orca web pair pairs a second device; a revoked page shows why and pairs again from a pasted link, no reload', async () => {
    const laptop = await pairedPage();
    const phone = await pairedPage();
    const ids = (await sessions()).map((s) => s.id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    await phone.page.screenshot({ path: join(shots, 'second-device.png') });
    await laptop.page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });
    const laptopId = laptop.token.split('.')[0] ?? '';
    const revoke = await runOrca(['--data-dir', dataDir, 'web', 'revoke', laptopId]);
    expect(revoke.code, revoke.stderr).toBe(0);
    await waitFor('the re-pair screen', async () => (await laptop.page.locator('.repair-reason').count()) === 1);
    expect(await laptop.page.locator('.repair-reason').textContent()).toMatch(/revoked/);
    await laptop.page.screenshot({ path: join(shots, 'repair-after-revoke.png') });
    // The phone's session is untouched.
    expect(await connectionOf(phone.page)).toBe('ready');
    const fresh = await pairUrl();
    await laptop.page.evaluate((hash) => {
      location.hash = hash;
    }, new URL(fresh).hash);
    await waitFor('paired again', async () => (await connectionOf(laptop.page)) === 'ready');
    expect(await laptop.page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(new URL(laptop.page.url()).hash).toBe('');
    const newToken = await laptop.page.evaluate(() => sessionStorage.getItem('orca.sessionToken'));
    expect(newToken).not.toBe(laptop.token);
    await laptop.page.context().close();
    await phone.page.context().close();
  }, 120_000);

  it('1: a raw client that ignores close frames is cut at the revoke; nothing it sends after runs', async () => {
    const { page, token } = await pairedPage();
    await page.context().close();
    const raw = await openRawWebSocket(port, ['orca.v1', `orca.session.${token}`], origin);
    expect(raw.status).toBe(101);
    let n = 0;
    const sender = setInterval(() => {
      n += 1;
      raw.sendText(JSON.stringify({ id: `tick-${n}`, method: 'terminal.list' }));
    }, 50);
    await waitFor('answered before the revoke', async () => raw.received.some((m) => m.includes('"tick-')));
    const before = (await client.call('terminal.list')).panes.length;
    const revoke = await runOrca(['--data-dir', dataDir, 'web', 'revoke', token.split('.')[0] ?? '']);
    expect(revoke.code, revoke.stderr).toBe(0);
    // What the client sends right after the revoke, a create among it, must not run.
    raw.sendText(
      JSON.stringify({ id: 'late-create', method: 'terminal.create', params: { argv: ['/bin/sh'], cwd: '/' } }),
    );
    await raw.endedAt;
    clearInterval(sender);
    expect(raw.received).toContain('close:4001:revoked');
    expect(raw.received.some((m) => m.includes('late-create'))).toBe(false);
    expect((await client.call('terminal.list')).panes.length).toBe(before);
  }, 120_000);

  it('2: a drop (the host gone for a moment, then back on its port) keeps the session: banner, retry, live again', async () => {
    const { page, token } = await pairedPage();
    await host.stop({ keeper: 'keep' });
    await waitFor('the banner', async () => (await page.locator('.banner.reconnecting').count()) === 1);
    expect(await page.locator('.banner.reconnecting').textContent()).toMatch(/retrying in \d+ s/);
    await page.screenshot({ path: join(shots, 'reconnect-banner.png') });
    await new Promise((r) => setTimeout(r, 1_000));
    host = await startOrca(dataDir, ['--web', `127.0.0.1:${port}`]);
    client.close();
    client = await connectRuntime(dataDir);
    await page
      .locator('button.retry-now')
      .click()
      .catch(() => undefined);
    await waitFor('live again', async () => (await connectionOf(page)) === 'ready');
    expect(await page.locator('.repair').count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('orca.sessionToken'))).toBe(token);
    const ids = (await sessions()).map((s) => s.id);
    expect(ids).toContain(token.split('.')[0]);
    await page.context().close();
  }, 120_000);

  it('4: wrong pairing codes are rate-limited and logged as summaries; host.log stays bounded', async () => {
    const statuses = new Map<number, number>();
    const attempt = (i: number) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, ['orca.v1', `orca.pair.wrong-code-${i}`], { origin });
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('open', () => {
          ws.close();
          resolve(101);
        });
        ws.once('error', () => resolve(0));
      });
    for (let i = 0; i < 400; i++) {
      const s = await attempt(i);
      statuses.set(s, (statuses.get(s) ?? 0) + 1);
    }
    expect(statuses.get(101) ?? 0).toBe(0);
    // Its free failures, then one more checked once the first second of backoff ran out, at most.
    expect(statuses.get(401) ?? 0).toBeLessThanOrEqual(8);
    expect(statuses.get(429) ?? 0).toBeGreaterThanOrEqual(390);
    const logs = join(dataDir, 'logs');
    const total = readdirSync(logs)
      .filter((f) => f.startsWith('host.log'))
      .reduce((sum, f) => sum + statSync(join(logs, f)).size, 0);
    // 400 refusals are a handful of summary lines, not 400 warnings.
    expect(total).toBeLessThan(200_000);
  });
});
