import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@orca/testkit';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRuntime } from '../src/rpc/client.ts';
import { type StartedHost, startOrca } from './cli-process.ts';
import { demoClaude } from './demo-claude.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.log(`skipping the board resume test: ${CHROMIUM} is absent (apt-get install chromium)`);

let browser: Browser | undefined;
let host: StartedHost | undefined;
afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe.skipIf(!hasChromium)('the board offers a session that ended with its keeper, and resumes it', () => {
  it('after the keeper is gone, the exited row has a resume button; clicking it starts the agent with its session and flags', async () => {
    const root = mkdtempSync(join(tmpdir(), 'orca-web-resume-'));
    const dataDir = join(root, 'data');
    const agent = await demoClaude(root);
    host = await startOrca(dataDir);
    let client = await connectRuntime(dataDir);
    const pane = await client.call('terminal.create', {
      argv: [agent.claude, '--permission-mode', 'default'],
      cwd: agent.home,
      name: 'resumable',
      env: agent.env(),
    });
    await until('idle', async () => (await client.call('terminal.show', { handle: pane.handle })).status === 'idle');
    const session = (JSON.parse(readFileSync(agent.starts, 'utf8').split('\n')[0] ?? '{}') as { sessionId: string })
      .sessionId;
    client.close();
    await host.stop(); // ends the keeper too: a reboot, as far as the agent is concerned
    host = await startOrca(dataDir, ['--web', '127.0.0.1:0']);
    const web = (host.ready as unknown as { web: { pairingUrl: string } }).web;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    const page = await browser.newPage();
    await page.goto(web.pairingUrl);
    const row = page.locator(`tr[data-handle="${pane.handle}"]`);
    await row.locator('button.resume').waitFor({ timeout: 30_000 });
    expect(await row.locator('button.resume').getAttribute('title')).toBe(
      `${agent.claude} --permission-mode default --resume ${session}`,
    );
    await row.locator('button.resume').click();
    await row.locator('.resumed-as').waitFor({ timeout: 30_000 });
    const next = ((await row.locator('.resumed-as').textContent()) ?? '').replace('resumed as ', '');
    await page.locator(`tr[data-handle="${next}"]`).waitFor({ timeout: 30_000 });
    client = await connectRuntime(dataDir);
    await until(
      'the resumed agent idle',
      async () => (await client.call('terminal.show', { handle: next })).status === 'idle',
    );
    client.close();
    const starts = readFileSync(agent.starts, 'utf8').trim().split('\n');
    expect(JSON.parse(starts.at(-1) ?? '{}')).toEqual({
      argv: ['--permission-mode', 'default', '--resume', session],
      sessionId: session,
    });
    expect(await row.locator('button.resume').count()).toBe(0);
  }, 120_000);
});
