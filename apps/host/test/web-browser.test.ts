import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type UntilProbe, until } from '@orca/testkit';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installHooks } from '../src/agent-hooks/install-hooks.ts';
import { demoAgentPath } from '../src/demo/demo-agent-path.ts';
import type { PaneView } from '../src/panes/pane-view.ts';
import { connectRuntime, type RuntimeClient } from '../src/rpc/client.ts';
import { recordNotifications, shownNotifications } from './browser-notifications.ts';
import { runOrca, type StartedHost, startOrca } from './cli-process.ts';

/** Debian's Chromium (`.ci/run` installs it); nothing is downloaded. */
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.log(`skipping the real-browser tests: ${CHROMIUM} is absent (apt-get install chromium)`);

/** Where the screenshots go (printed; nothing is written into the repo). */
const shots = mkdtempSync(join(tmpdir(), 'orca-web-screens-'));

interface WebReady {
  origin: string;
  pairingUrl: string;
}

let host: StartedHost;
let web: WebReady;
let client: RuntimeClient;
let browser: Browser;
let pane: PaneView;
let echoLog: string;
let foreign: Server;
let home: string;

/**
 * `until` with room for a loaded 2-core machine: Chromium also backs off between failed WebSocket
 * handshakes to one host, so the refusal and reconnect steps can take several seconds each.
 */
function waitFor<T>(what: string, probe: UntilProbe<T>): Promise<T> {
  return until(what, probe, { timeoutMs: 60_000 });
}

/**
 * The status word the board shows for `handle` ('' while the row is missing). Why: read from the
 * DOM in one evaluation; a locator with a 1 ms timeout failed at random under load and left the
 * waits spinning for a minute.
 */
async function boardStatus(page: Page, handle: string): Promise<string> {
  return page
    .evaluate(
      (h) => document.querySelector(`tr[data-handle="${CSS.escape(h)}"]`)?.getAttribute('data-status') ?? '',
      handle,
    )
    .catch(() => '');
}

describe.skipIf(!hasChromium)('the browser client in real Chromium against a real host (orca start --web)', () => {
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-web-e2e-'));
    const dataDir = join(root, 'data');
    home = join(root, 'home');
    echoLog = join(root, 'agent-input.log');
    writeFileSync(echoLog, '');
    await installHooks({ home, agents: ['claude'], agentVersions: { claude: '2.1.80' } });
    host = await startOrca(dataDir, ['--web', '127.0.0.1:0']);
    web = (host.ready as unknown as { web: WebReady }).web;
    client = await connectRuntime(dataDir);
    pane = await client.call('terminal.create', {
      argv: [process.execPath, demoAgentPath()],
      cwd: home,
      name: 'demo-agent',
      env: { HOME: home, ORCA_DEMO_ECHO_LOG: echoLog },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    // Another site's page (a different origin on this machine), for the Origin check.
    foreign = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>x'),
    );
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    console.log(`web e2e screenshots: ${shots}`);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    foreign?.close();
    client?.close();
    await host?.stop();
  });

  let sessionToken = '';

  it('pairs, shows the pane on the board, creates a pane, and shows each verdict change live; the tab title counts waiting panes and an opted-in notification fires', async () => {
    const context = await browser.newContext();
    await recordNotifications(context, web.origin);
    const page = await context.newPage();
    await page.goto(web.pairingUrl);
    await waitFor('the pane on the board, idle', async () => (await boardStatus(page, pane.handle)) === 'idle');
    // The pairing code left the address bar; the page holds a session token instead.
    expect(new URL(page.url()).hash).toBe('');
    sessionToken = (await page.evaluate(() => sessionStorage.getItem('orca.sessionToken'))) ?? '';
    expect(sessionToken).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    const row = page.locator(`tr[data-handle="${pane.handle}"]`);
    expect(await row.locator('td').allInnerTexts()).toEqual(
      expect.arrayContaining(['demo-agent', 'claude', 'idle', join(host.ready.dataDir, '..', 'home')]),
    );
    expect(await page.title()).toBe('orca');
    // Create a pane from the board (argv, cwd): it appears as a row.
    await page.locator('.create-pane input[name="argv"]').fill('/bin/sh -c "sleep 600"');
    await page.locator('.create-pane input[name="cwd"]').fill('/tmp');
    await page.locator('.create-pane button').click();
    let created = '';
    await waitFor('the create answer', async () => {
      created = /^created (\S+)$/.exec((await page.locator('.create-result').textContent()) ?? '')?.[1] ?? '';
      return created !== '';
    });
    await waitFor('the new row', async () => (await boardStatus(page, created)) !== '');
    expect(await page.locator(`tr[data-handle="${created}"] td.cwd`).textContent()).toBe('/tmp');
    await page.locator('label.notify input').check();
    await waitFor('notifications on', () => page.locator('label.notify input').isChecked());
    await page.screenshot({ path: join(shots, 'board-idle.png'), fullPage: true });
    // A prompt submitted elsewhere (the CLI's RPC) drives the agent to its approval menu; the
    // open page follows with no reload.
    await client.call('terminal.send', { handle: pane.handle, text: 'run the tests\r' });
    await waitFor('the board shows the pane waiting', async () => {
      const status = await boardStatus(page, pane.handle);
      return status === 'waiting';
    });
    expect(await page.title()).toBe('(1) waiting · orca');
    expect((await row.locator('td.wait').textContent()) ?? '').toMatch(/ · \d+ s$/);
    await waitFor('the notification', async () => (await shownNotifications(page)).length > 0);
    expect(await shownNotifications(page)).toEqual([
      expect.stringMatching(/^demo-agent needs you \| demo-agent \(claude\) is waiting for you: /),
    ]);
    expect(await page.locator('.needs-you li[data-state="open"]').textContent()).toMatch(
      /demo-agent \(claude\) is waiting for you/,
    );
    await page.screenshot({ path: join(shots, 'board-waiting.png'), fullPage: true });
    await context.close();
  }, 180_000);

  it("attaching shows the pane's text; a prompt at the approval menu is refused with 0 bytes written; typing reaches the PTY", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // A reload of the paired tab resumes with its session token (sessionStorage, this tab only).
    await context.addInitScript((t) => sessionStorage.setItem('orca.sessionToken', t), sessionToken);
    await page.goto(`${web.origin}/#pane=${encodeURIComponent(pane.handle)}`);
    await waitFor('the snapshot shows the approval menu', async () =>
      ((await page.locator('.xterm-rows').textContent()) ?? '').includes('Do you want to proceed?'),
    );
    expect((await page.locator('.pane-state').textContent()) ?? '').toBe('live');
    // The prompt box goes through the guarded dispatch: at the approval menu it is refused and
    // not one byte reaches the PTY.
    const before = readFileSync(echoLog, 'utf8');
    await page.locator('.prompt-box input').fill('also update the docs');
    await page.locator('.prompt-box button[type=submit]').click();
    const result = page.locator('.dispatch-result');
    await waitFor('the refusal shows', async () => (await result.getAttribute('data-outcome')) === 'refused');
    expect(await result.getAttribute('data-code')).toBe('agent_prompt_blocked');
    expect((await result.textContent()) ?? '').toMatch(/^agent_prompt_blocked: ./);
    expect(readFileSync(echoLog, 'utf8')).toBe(before);
    await page.screenshot({ path: join(shots, 'pane-menu-refused.png') });
    await page.locator('.pane-terminal').click();
    await page.keyboard.type('y');
    await waitFor('the keystroke reached the PTY', () => readFileSync(echoLog, 'utf8').endsWith('y'));
    await waitFor('live output after the answer', async () =>
      ((await page.locator('.xterm-rows').textContent()) ?? '').includes('All 12 tests pass'),
    );
    await page.keyboard.type('hello from the browser');
    await waitFor('the typed text reached the PTY', () =>
      readFileSync(echoLog, 'utf8').includes('hello from the browser'),
    );
    await waitFor('the agent echoed it', async () =>
      ((await page.locator('.xterm-rows').textContent()) ?? '').includes('hello from the browser'),
    );
    await page.screenshot({ path: join(shots, 'pane-typed.png') });
    // Leave the composer empty for the next test's dispatch.
    for (const _ of 'hello from the browser') await page.keyboard.press('Backspace');
    await waitFor('the composer is empty again', () => readFileSync(echoLog, 'utf8').endsWith('\x7f'.repeat(22)));
    await context.close();
  }, 180_000);

  it("resizing the window claims the pane's viewport: its stty size follows", async () => {
    const shell = await client.call('terminal.create', { argv: ['/bin/sh'], cwd: '/', name: 'shell' });
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    await context.addInitScript((t) => sessionStorage.setItem('orca.sessionToken', t), sessionToken);
    const page = await context.newPage();
    await page.goto(`${web.origin}/#pane=${encodeURIComponent(shell.handle)}`);
    await waitFor('attached', async () => ((await page.locator('.pane-state').textContent()) ?? '') === 'live');
    const sttySize = async (marker: string): Promise<[number, number]> => {
      await page.locator('.pane-terminal').click();
      await page.keyboard.type(`echo ${marker} $(stty size)\r`);
      let size: [number, number] = [0, 0];
      await waitFor(`stty size after ${marker}`, async () => {
        const text = (await page.locator('.xterm-rows').textContent()) ?? '';
        const match = new RegExp(`${marker} (\\d+) (\\d+)`).exec(text);
        if (match) size = [Number(match[1]), Number(match[2])];
        return match !== null;
      });
      return size;
    };
    const [rows1, cols1] = await sttySize('big');
    expect(cols1).toBeGreaterThan(80);
    await page.screenshot({ path: join(shots, 'pane-resize-big.png') });
    const domRows = (): Promise<number> => page.locator('.xterm-rows > div').count();
    expect(await domRows()).toBe(rows1);
    await page.setViewportSize({ width: 760, height: 420 });
    // Why: the page fits the terminal and sends its claim in one step, so once the rows changed the
    // claim is on the socket ahead of the keys typed next.
    await waitFor('the terminal fitted the window', async () => (await domRows()) < rows1);
    const after = await sttySize('small');
    expect(after).toEqual([await domRows(), expect.any(Number)]);
    expect(after[1]).toBeLessThan(cols1);
    expect(after[0]).toBeLessThan(rows1);
    await page.screenshot({ path: join(shots, 'pane-resize-small.png') });
    await context.close();
  }, 180_000);

  it('at phone width (390×844) the board is cards and the terminal read-only; the prompt box still dispatches', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.addInitScript((t) => sessionStorage.setItem('orca.sessionToken', t), sessionToken);
    const page = await context.newPage();
    await page.goto(web.origin);
    await waitFor('the board', async () => (await boardStatus(page, pane.handle)) !== '');
    await page.screenshot({ path: join(shots, 'phone-board.png'), fullPage: true });
    await page.locator(`tr[data-handle="${pane.handle}"] button.open`).tap();
    await waitFor('the pane is attached', async () =>
      ((await page.locator('.xterm-rows').textContent()) ?? '').includes('Claude Code'),
    );
    expect(await page.locator('section.pane').getAttribute('data-readonly')).toBe('true');
    const before = readFileSync(echoLog, 'utf8');
    await page.locator('.pane-terminal').tap();
    await page.keyboard.type('zzz');
    await page.locator('.prompt-box input').fill('phone prompt');
    await page.locator('.prompt-box button[type=submit]').tap();
    const result = page.locator('.dispatch-result');
    await waitFor('the dispatch went through', async () => (await result.getAttribute('data-outcome')) === 'sent');
    // Only the dispatched prompt reached the PTY; the keys typed on the terminal before it did not.
    const written = readFileSync(echoLog, 'utf8').slice(before.length);
    expect(written).toContain('phone prompt');
    expect(written).not.toContain('z');
    await page.screenshot({ path: join(shots, 'phone-pane.png'), fullPage: true });
    await context.close();
  }, 180_000);

  it('the pane view queues prompts behind a permission menu, removes and reorders them, shows each receipt; the board counts them', async () => {
    const turns = join(home, 'queue-turns.jsonl');
    writeFileSync(turns, '');
    const agent = await client.call('terminal.create', {
      argv: [process.execPath, demoAgentPath()],
      cwd: home,
      name: 'queue-agent',
      env: { HOME: home, ORCA_DEMO_TOOL: 'keyword:approve', ORCA_DEMO_REPLY_MS: '300', ORCA_DEMO_PROMPT_LOG: turns },
    });
    await waitFor('the queue agent idle', async () => {
      const v = await client.call('terminal.show', { handle: agent.handle });
      return v.isRunningAgent && v.status === 'idle';
    });
    await client.call('terminal.dispatch', { handle: agent.handle, inject: 'approve the deploy' });
    await waitFor('its permission menu', async () => {
      const v = await client.call('terminal.show', { handle: agent.handle });
      return v.status === 'permission';
    });
    const context = await browser.newContext();
    await context.addInitScript((t) => sessionStorage.setItem('orca.sessionToken', t), sessionToken);
    const page = await context.newPage();
    await page.goto(`${web.origin}/#pane=${encodeURIComponent(agent.handle)}`);
    await waitFor('attached', async () => ((await page.locator('.pane-state').textContent()) ?? '') === 'live');
    for (const prompt of ['first queued prompt', 'second queued prompt', 'third queued prompt']) {
      await page.locator('.prompt-box input').fill(prompt);
      await page.locator('.prompt-box button.queue-add').click();
      await waitFor(`${prompt} queued`, async () =>
        ((await page.locator('.dispatch-result').textContent()) ?? '').startsWith('queued #'),
      );
    }
    const rows = page.locator('.pane-queue li');
    const shown = async (): Promise<string[]> =>
      (await rows.all()).length === 0
        ? []
        : Promise.all(
            (await rows.all()).map(
              async (li) =>
                `${await li.locator('.queue-state').textContent()} ${await li.locator('.queue-prompt').textContent()}`,
            ),
          );
    // The head says what it waits for once its worker has looked at the pane; the rest just wait.
    const waiting = 'waiting for a human (agent_prompt_blocked)';
    const threeQueued = [
      `queued #1 · ${waiting} first queued prompt`,
      'queued #2 second queued prompt',
      'queued #3 third queued prompt',
    ];
    await waitFor(
      'three queued, the head waiting for the menu',
      async () => (await shown()).every((row, i) => row === threeQueued[i]) && (await rows.count()) === 3,
    );
    expect(await shown()).toEqual(threeQueued);
    // Nothing was typed into the menu.
    const beforeEdits = readFileSync(turns, 'utf8');
    await page.locator('.pane-queue li', { hasText: 'second queued prompt' }).locator('button.queue-remove').click();
    // Why: "up" sends the position the page shows; clicked before the removal is drawn it asks for no move.
    await waitFor('the removal drawn', async () => (await shown()).includes('cancelled second queued prompt'));
    await page.locator('.pane-queue li', { hasText: 'third queued prompt' }).locator('button.queue-up').click();
    const reordered = [
      `queued #1 · ${waiting} third queued prompt`,
      'queued #2 first queued prompt',
      'cancelled second queued prompt',
    ];
    await waitFor('removed and reordered', async () => {
      const now = await shown();
      return now.length === 3 && now.every((row, i) => row === reordered[i]);
    });
    expect(await shown()).toEqual(reordered);
    await page.screenshot({ path: join(shots, 'pane-queue.png'), fullPage: true });
    const board = await context.newPage();
    await board.goto(web.origin);
    await waitFor(
      'the board counts the queue',
      async () =>
        ((await board.locator(`tr[data-handle="${agent.handle}"] td.queued`).textContent()) ?? '') === '2 queued',
    );
    await board.screenshot({ path: join(shots, 'board-queue.png') });
    expect(readFileSync(turns, 'utf8')).toBe(beforeEdits);
    await client.call('terminal.send', { handle: agent.handle, text: 'y' });
    await waitFor('both delivered, each proven by its own prompt hook', async () => {
      const states = await page.locator('.pane-queue li .queue-state').allTextContents();
      return states.filter((t) => /^submitted in \d+ ms · its prompt hook carried this prompt$/.test(t)).length === 2;
    });
    const delivered = readFileSync(turns, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { prompt: string }).prompt);
    expect(delivered).toEqual(['approve the deploy', 'third queued prompt', 'first queued prompt']);
    await waitFor(
      'the board count cleared',
      async () => ((await board.locator(`tr[data-handle="${agent.handle}"] td.queued`).textContent()) ?? 'x') === '',
    );
    await context.close();
  }, 180_000);

  it('a killed socket reconnects with the session token, and the board is live again', async (ctx) => {
    const page = await browser.newPage();
    await page.addInitScript((t) => sessionStorage.setItem('orca.sessionToken', t), sessionToken);
    await page.goto(web.origin);
    await waitFor('the board shows the pane waiting', async () => (await boardStatus(page, pane.handle)) === 'waiting');
    const port = new URL(web.origin).port;
    // Why: `ss -K` destroys the browser's TCP connection to the host from outside (as a dropped
    // network would); kernels without socket-destroy support kill nothing.
    let killed = '';
    try {
      killed = execFileSync('ss', ['-K', '-t', 'dst', '127.0.0.1', 'dport', '=', port], { encoding: 'utf8' });
    } catch (error) {
      killed = '';
      console.log(`ss -K failed: ${(error as Error).message}`);
    }
    if (!killed.includes(`127.0.0.1:${port}`)) {
      console.log('skipping the reconnect test: `ss -K` could not destroy sockets on this kernel');
      await page.close();
      ctx.skip();
      return;
    }
    await waitFor(
      'the page noticed',
      async () => (await page.locator('main').getAttribute('data-connection')) === 'reconnecting',
    );
    await waitFor('reconnected', async () => (await page.locator('main').getAttribute('data-connection')) === 'ready');
    // Answer the menu from elsewhere: the reconnected board follows live.
    await client.call('terminal.send', { handle: pane.handle, text: 'y' });
    await waitFor(
      'the board left waiting',
      async () => !['waiting', ''].includes(await boardStatus(page, pane.handle)),
    );
    await page.close();
  }, 180_000);

  it('an exited pane shows as exited and can be removed from the board', async () => {
    const page = await browser.newPage();
    await page.addInitScript((t) => sessionStorage.setItem('orca.sessionToken', t), sessionToken);
    const done = await client.call('terminal.create', { argv: ['/bin/true'], cwd: '/', name: 'short' });
    await client.call('terminal.wait', { handle: done.handle, for: 'exit' });
    // Why: an exit publishes no status change of its own when the verdict stays the same, so the
    // page is opened after it (a live "exited" row is not promised yet).
    await page.goto(web.origin);
    await waitFor('the row shows exited', async () => (await boardStatus(page, done.handle)) === 'exited');
    await page.locator(`tr[data-handle="${done.handle}"] button.remove`).click();
    await waitFor(
      'the row is gone',
      async () => (await page.locator(`tr[data-handle="${done.handle}"]`).count()) === 0,
    );
    await expect(client.call('terminal.show', { handle: done.handle })).rejects.toMatchObject({
      code: 'terminal_handle_stale',
    });
    await page.close();
  }, 180_000);

  it('a used or wrong pairing code, and a foreign Origin with a valid token, get nothing', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const url of [web.pairingUrl, `${web.origin}/#pair=not-a-code`, web.origin]) {
      await page.goto('about:blank');
      await page.goto(url);
      await waitFor(`refused or unpaired: ${url.replace(/#.*/, '#…')}`, async () =>
        ['repair', 'unpaired'].includes((await page.locator('main').getAttribute('data-connection')) ?? ''),
      );
      expect(await page.locator('table.board').count()).toBe(0);
    }
    await page.screenshot({ path: join(shots, 'refused.png') });
    // Another site's page opening the socket with this tab's real token: refused at the upgrade.
    await page.goto(`http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`);
    const outcome = await page.evaluate(
      ({ url, token }) =>
        new Promise<{ opened: boolean; messages: number; code: number }>((resolve) => {
          const ws = new WebSocket(url, ['orca.v1', `orca.session.${token}`]);
          let opened = false;
          let messages = 0;
          ws.onopen = () => {
            opened = true;
          };
          ws.onmessage = () => {
            messages += 1;
          };
          ws.onclose = (e) => resolve({ opened, messages, code: e.code });
        }),
      { url: `${web.origin.replace('http', 'ws')}/ws`, token: sessionToken },
    );
    expect(outcome).toEqual({ opened: false, messages: 0, code: 1006 });
    // The same token from the served origin still works (the refusal was the Origin's).
    const resumed = await context.newPage();
    await resumed.addInitScript((t) => sessionStorage.setItem('orca.sessionToken', t), sessionToken);
    await resumed.goto(web.origin);
    await waitFor('resumed on the served origin', async () => (await boardStatus(resumed, pane.handle)) !== '');
    await context.close();
  }, 180_000);

  it('orca web sessions lists the session; orca web revoke ends it: its open page is told, its token then gets nothing; no code or token is logged', async () => {
    const context = await browser.newContext();
    await context.addInitScript((t) => sessionStorage.setItem('orca.sessionToken', t), sessionToken);
    const page = await context.newPage();
    await page.goto(web.origin);
    await waitFor('the board', async () => (await boardStatus(page, pane.handle)) !== '');
    const dataDir = host.ready.dataDir;
    const id = sessionToken.slice(0, sessionToken.indexOf('.'));
    const listed = await runOrca(['--json', '--data-dir', dataDir, 'web', 'sessions']);
    expect(listed.code).toBe(0);
    const { sessions } = JSON.parse(listed.stdout) as { sessions: { id: string; sockets: number }[] };
    expect(sessions.map((s) => s.id)).toEqual([id]);
    expect(sessions[0]?.sockets).toBeGreaterThanOrEqual(1);
    expect(await runOrca(['--json', '--data-dir', dataDir, 'web', 'revoke', id])).toMatchObject({
      code: 0,
      stdout: `${JSON.stringify({ revoked: id })}\n`,
    });
    await waitFor(
      'the open page is told',
      async () => (await page.locator('main').getAttribute('data-connection')) === 'repair',
    );
    expect((await page.locator('.repair-reason').textContent()) ?? '').toBe(
      'this browser session was revoked (orca web revoke)',
    );
    await page.screenshot({ path: join(shots, 'revoked.png') });
    const again = await context.newPage();
    await again.goto(web.origin);
    await waitFor(
      'the revoked token is refused',
      async () => (await again.locator('main').getAttribute('data-connection')) === 'repair',
    );
    expect(await again.locator('.repair-reason').textContent()).toMatch(/revoked/);
    expect(await again.locator('table.board').count()).toBe(0);
    const unknown = await runOrca(['--data-dir', dataDir, 'web', 'revoke', id]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/ORCA_HOST_WEB: no browser session/);
    // Neither the pairing code nor the session's secret was ever logged.
    // Refusals are logged as one summary line per interval (the earlier wrong codes among them).
    const log = await waitFor('the refusal summary', () => {
      const text = readFileSync(join(dataDir, 'logs', 'host.log'), 'utf8');
      return text.includes('web attempts refused') ? text : false;
    });
    expect(log).not.toContain(new URL(web.pairingUrl).hash.slice('#pair='.length));
    expect(log).not.toContain(sessionToken.slice(sessionToken.indexOf('.') + 1));
    await context.close();
  }, 180_000);
});
