// Drives code-server in Chromium: open a kernel, break a value name, wait for the diagnostic,
// hover an op, go to definition, screenshot. Env: URL, SCREENSHOT, OUTDIR, NODE_PATH (playwright-core).
//
// Cursor placement goes through Quick Open's ":line:col" mode (F1, then replace the ">" prefix),
// not Ctrl+G / Ctrl+F: in the browser those chords do not reliably reach the editor. Commands
// (Show Hover, Go to Definition) also run from the command palette, so no mouse timing is involved.
// Prints one line per step and, at the end, a JSON summary of every step.
const { chromium } = require('playwright-core');

const URL = process.env.URL;
const SHOT = process.env.SCREENSHOT;
const OUT = process.env.OUTDIR || '/tmp';

const summary = { steps: [], screenshot: null, pass: false };

async function step(name, fn) {
  process.stdout.write(`- ${name} ... `);
  const t0 = Date.now();
  const rec = { step: name, ok: false };
  summary.steps.push(rec);
  try {
    const detail = await fn();
    rec.ok = true;
    if (detail !== undefined) rec.detail = detail;
    console.log('ok');
    return detail;
  } catch (err) {
    rec.error = String(err && err.message || err).split('\n').slice(0, 6).join('\n');
    console.log('FAILED');
    throw err;
  } finally {
    rec.ms = Date.now() - t0;
  }
}

(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

  const quickInput = page.locator('.quick-input-widget .quick-input-box input');

  // Open the command palette (F1) and replace its text with `text` (">" prefix = commands,
  // ":" prefix = go to line/column).
  async function palette(text) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await quickInput.waitFor({ state: 'visible', timeout: 15000 });
    await quickInput.fill(text);
    await page.waitForTimeout(400);
  }

  async function runCommand(title) {
    await palette(`>${title}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ timeout: 15000 });
    await row.click();
    await quickInput.waitFor({ state: 'hidden', timeout: 15000 });
  }

  async function cursorPos() {
    const txt = await page.locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ }).first().innerText();
    const m = /Ln (\d+), Col (\d+)/.exec(txt);
    return { line: +m[1], col: +m[2] };
  }

  async function waitCursor(line, col, timeout = 15000) {
    const deadline = Date.now() + timeout;
    let pos;
    while (Date.now() < deadline) {
      pos = await cursorPos().catch(() => null);
      if (pos && pos.line === line && (col === undefined || pos.col === col)) return pos;
      await page.waitForTimeout(200);
    }
    throw new Error(`cursor is at ${JSON.stringify(pos)}, expected Ln ${line}${col ? `, Col ${col}` : ''}`);
  }

  async function gotoPos(line, col) {
    await palette(`:${line}:${col}`);
    await page.keyboard.press('Enter');
    await quickInput.waitFor({ state: 'hidden', timeout: 15000 });
    return waitCursor(line, col);
  }

  // Text of a rendered editor line (1-based), read from the view line at that line's top.
  async function lineText(line) {
    return page.evaluate((ln) => {
      const num = [...document.querySelectorAll('.monaco-editor .margin-view-overlays .line-numbers')]
        .find((e) => e.textContent.trim() === String(ln));
      if (!num) return null;
      const top = num.parentElement.style.top;
      const vl = [...document.querySelectorAll('.monaco-editor .view-lines .view-line')]
        .find((e) => e.style.top === top);
      return vl ? vl.textContent.replace(/\u00a0/g, ' ') : null;
    }, line);
  }

  try {
    await step('load workbench', async () => {
      await page.goto(URL);
      await page.waitForSelector('.monaco-workbench', { timeout: 120000 });
      await page.waitForSelector('.statusbar', { timeout: 60000 });
    });
    await step('open vector_add.mlir (quick open)', async () => {
      await palette('vector_add.mlir');
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'vector_add.mlir' }).first();
      await row.waitFor({ timeout: 30000 });
      await row.click();
      await page.waitForSelector('.monaco-editor .view-lines .view-line', { timeout: 30000 });
      await page.locator('.monaco-editor .view-lines').first().click();
    });
    await step('language is cuda_tile, GPU sm_90 (status bar)', async () => {
      await page.waitForSelector('.statusbar-item:has-text("cuda_tile")', { timeout: 30000 });
      await page.waitForSelector('.statusbar-item:has-text("sm_90")', { timeout: 30000 });
      return { language: 'cuda_tile', gpu: 'sm_90' };
    });
    await step('pipeline status (tileLsp/pipelineStatus) in the status bar', async () => {
      // The valid kernel compiles in the background: "pipeline N ms" (or "N.NN s") once ptxas is done.
      const item = page.locator('.statusbar-item', { hasText: /pipeline \d+(\.\d+)? m?s/ }).first();
      await item.waitFor({ timeout: 60000 });
      return { text: (await item.innerText()).trim() };
    });
    await step('break a value name -> diagnostic', async () => {
      // line 6: "    %base = muli %bid, %c128 : tile<i32>"; "%bid" ends before col 22.
      const before = await lineText(6);
      const col = before.indexOf('%bid,') + 1 + 4; // 1-based column just after "%bid"
      await gotoPos(6, col);
      await page.keyboard.type('d');
      const after = await lineText(6);
      if (!after || !after.includes('%bidd,')) throw new Error(`line 6 after the edit: ${JSON.stringify(after)}`);
      await page.waitForSelector('.squiggly-error', { timeout: 60000 });
      // Problems count in the status bar (errors item).
      const problems = page.locator('.statusbar-item', { has: page.locator('.codicon-error') }).first();
      let errors = null;
      const deadline = Date.now() + 30000;
      while (Date.now() < deadline) {
        const t = (await problems.innerText().catch(() => '')).trim();
        const m = /^(\d+)/.exec(t);
        if (m && +m[1] >= 1) { errors = +m[1]; break; }
        await page.waitForTimeout(250);
      }
      if (errors === null) throw new Error('status bar error count stayed at 0');
      return { line6: after.trim(), errors };
    });
    const hover = await step('hover an op (addf) -> cuda_tile. docs', async () => {
      const l22 = await lineText(22);
      const col = l22.indexOf('addf') + 2; // inside "addf"
      await gotoPos(22, col);
      const content = page.locator('.monaco-hover-content', { hasText: 'cuda_tile.' }).first();
      let via = 'command palette: Show or Focus Hover';
      try {
        await runCommand('Show or Focus Hover');
        await content.waitFor({ state: 'visible', timeout: 15000 });
      } catch (e) {
        // Fallback: real mouse hover over the token.
        via = 'mouse hover';
        const tok = page.locator('.view-line span', { hasText: /^addf$/ }).first();
        const box = await tok.boundingBox();
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await content.waitFor({ state: 'visible', timeout: 15000 });
      }
      const text = await content.innerText();
      return { via, text: text.split('\n').filter(Boolean).slice(0, 3).join(' | ') };
    });
    console.log(`  hover: ${hover.text}`);
    await step('screenshot (diagnostic squiggle + hover visible)', async () => {
      if (!(await page.locator('.squiggly-error').first().isVisible())) throw new Error('no squiggle visible');
      if (!(await page.locator('.monaco-hover-content', { hasText: 'cuda_tile.' }).first().isVisible())) {
        throw new Error('hover not visible');
      }
      // The hover fades in: wait until it (and its ancestors) are fully opaque before the shot.
      await page.waitForFunction(() => {
        const el = [...document.querySelectorAll('.monaco-hover-content')]
          .find((e) => e.textContent.includes('cuda_tile.'));
        for (let n = el; n && n !== document.body; n = n.parentElement) {
          const cs = getComputedStyle(n);
          if (parseFloat(cs.opacity) < 1 || cs.animationName !== 'none' && cs.animationPlayState === 'running') return false;
        }
        return !!el;
      }, null, { timeout: 10000 }).catch(() => {});
      await page.waitForTimeout(500);
      await page.screenshot({ path: SHOT });
      summary.screenshot = SHOT;
      return { path: SHOT };
    });
    console.log(`  screenshot: ${SHOT}`);
    await step('go to definition of %sum (line 23 -> line 22)', async () => {
      await page.keyboard.press('Escape'); // close the hover
      const l23 = await lineText(23);
      const col = l23.indexOf('%sum') + 2; // inside "%sum"
      const from = await gotoPos(23, col);
      let via = 'F12';
      await page.keyboard.press('F12');
      try {
        await waitCursor(22, undefined, 8000);
      } catch (e) {
        via = 'command palette: Go to Definition';
        await gotoPos(23, col);
        await runCommand('Go to Definition');
        await waitCursor(22, undefined, 15000);
      }
      const to = await cursorPos();
      return { via, from, to };
    });
    summary.pass = true;
    console.log('PASS');
  } catch (err) {
    await page.screenshot({ path: `${OUT}/e2e-failure.png` }).catch(() => {});
    summary.failureScreenshot = `${OUT}/e2e-failure.png`;
    console.error(`FAIL: ${err && err.stack || err}`);
    process.exitCode = 1;
  } finally {
    console.log(JSON.stringify(summary, null, 2));
    await browser.close();
  }
})();
