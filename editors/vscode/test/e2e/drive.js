// Drives code-server in Chromium: open a kernel, break a value name, wait for the diagnostic,
// hover an op, go to definition, screenshot. Env: URL, SCREENSHOT, OUTDIR, NODE_PATH (playwright-core).
const { chromium } = require('playwright-core');

const URL = process.env.URL;
const SHOT = process.env.SCREENSHOT;
const OUT = process.env.OUTDIR || '/tmp';

async function step(name, fn) {
  process.stdout.write(`- ${name} ... `);
  const result = await fn();
  console.log('ok');
  return result;
}

(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const mod = process.platform === 'darwin' ? 'Meta' : 'Control';
  try {
    await step('load workbench', async () => {
      await page.goto(URL);
      await page.waitForSelector('.monaco-workbench', { timeout: 120000 });
    });
    await step('open vector_add.mlir (quick open)', async () => {
      await page.keyboard.press(`${mod}+P`);
      await page.keyboard.type('vector_add.mlir');
      await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30000 });
      await page.waitForTimeout(500);
      await page.keyboard.press('Enter');
      await page.waitForSelector('.monaco-editor .view-lines', { timeout: 30000 });
    });
    await step('language is cuda_tile (status bar)', async () => {
      await page.waitForSelector('.statusbar-item:has-text("cuda_tile")', { timeout: 30000 });
      await page.waitForSelector('.statusbar-item:has-text("sm_90")', { timeout: 30000 });
    });
    await step('break a value name -> diagnostic', async () => {
      // line 6: "%base = muli %bid, %c128" -> "%bidd"
      await page.keyboard.press(`${mod}+G`);
      await page.keyboard.type('6');
      await page.keyboard.press('Enter');
      await page.keyboard.press('End');
      await page.keyboard.press(`${mod}+F`);
      await page.keyboard.type('%bid,');
      await page.keyboard.press('Escape');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.type('d');
      await page.waitForSelector('.squiggly-error', { timeout: 60000 });
      await page.waitForSelector('.statusbar-item:has-text("1")', { timeout: 30000 });
    });
    const hoverText = await step('hover an op (addf)', async () => {
      const op = page.locator('.view-line span', { hasText: /^addf$/ }).first();
      await op.click(); // cursor on the op, then "Show Hover" (Ctrl+K Ctrl+I): no mouse timing
      await page.keyboard.press(`${mod}+K`);
      await page.keyboard.press(`${mod}+I`);
      const hover = page.locator('.monaco-hover-content:visible').first();
      await hover.waitFor({ timeout: 30000 });
      return hover.innerText();
    });
    console.log(`  hover: ${hoverText.split('\n').slice(0, 3).join(' | ')}`);
    await page.screenshot({ path: SHOT });
    console.log(`  screenshot: ${SHOT}`);
    await step('go to definition of %sum', async () => {
      await page.mouse.move(0, 0);
      const use = page.locator('.view-line span', { hasText: /^%sum$/ }).last();
      await use.click();
      await page.keyboard.press('F12');
      // the cursor moves to the defining line (line 22: "%sum = addf ...")
      await page.waitForSelector('.statusbar-item:has-text("Ln 22")', { timeout: 30000 });
    });
    console.log('PASS');
  } catch (err) {
    await page.screenshot({ path: `${OUT}/e2e-failure.png` }).catch(() => {});
    console.error(`FAIL: ${err && err.stack || err}`);
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
})();
