import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { route, signInDemo, type Envelope } from './support/app.js';
import { consoleRoute, loginAsAdmin } from './support/console.js';

/**
 * Images in the support chat at 390×844 (ADR 0041): the user attaches a picture (through the kit's button:
 * no file input on screen) and sends it with a question; the console's queue shows it; the operator answers
 * with a picture of their own, which arrives in the app live. Axe: no serious or critical violation on the
 * customer-service page with both pictures.
 */
const SERVICE = '/subPackages/customerService/customerService';

/** A picture to send: one of the seeded home banners' (a small JPEG the server made). */
async function samplePicture(request: APIRequestContext, index: number): Promise<Buffer> {
  const list = (await (await request.get('/api/banners')).json()) as Envelope<{
    items: { image_url: string }[];
  }>;
  const item = list.data.items[index % list.data.items.length];
  if (!item) throw new Error('no seeded banner');
  return Buffer.from(await (await request.get(item.image_url)).body());
}

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).exclude('.adm-tab-bar').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('the user sends a picture, the console sees it, the operator answers with one that arrives live', async ({
  page,
  browser,
}) => {
  const stamp = Date.now().toString(36);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInDemo(page, 'jp');
  await page.goto(route(SERVICE));
  const chat = page.getByTestId('support-chat');
  await expect(chat).toBeVisible();
  // the file input is never on screen (at most 1 px, as routes.spec.ts checks): the kit's button opens it
  const box = await chat.getByTestId('support-file').boundingBox();
  expect(box === null || (box.width <= 1 && box.height <= 1)).toBe(true);
  await expect(chat.getByTestId('support-attach')).toBeVisible();
  await chat.getByTestId('support-file').setInputFiles({
    name: 'screen.jpg',
    mimeType: 'image/jpeg',
    buffer: await samplePicture(page.request, 0),
  });
  await expect(chat.getByTestId('support-attachment')).toHaveAttribute('data-state', 'ready');
  await expect(
    chat.getByTestId('support-attachment').getByRole('img', { name: '送信する画像' }),
  ).toBeVisible();
  const question = `この画面の表示について ${stamp}`;
  await chat.getByRole('textbox', { name: 'お問い合わせ内容を入力' }).fill(question);
  await chat.getByTestId('support-send').click();
  const messages = chat.getByTestId('support-messages');
  await expect(messages).toContainText(question);
  await expect(chat.getByTestId('support-attachment')).toHaveCount(0);
  const mine = messages.locator('li[data-from="user"]').filter({ hasText: question });
  await expect(mine.getByRole('img', { name: 'お客様が送信した画像' })).toBeVisible();

  const consolePage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await loginAsAdmin(consolePage);
  await consolePage.goto(consoleRoute('/support'));
  await consolePage.getByRole('cell', { name: question }).click();
  const thread = consolePage.getByRole('list').filter({ hasText: question });
  await expect(thread.getByRole('img', { name: 'Image from the conversation' }).last()).toBeVisible();
  await consolePage.getByTestId('support-file').setInputFiles({
    name: 'answer.jpg',
    mimeType: 'image/jpeg',
    buffer: await samplePicture(page.request, 1),
  });
  await expect(
    consolePage.getByTestId('support-attachment').getByRole('img', { name: 'Image to send' }),
  ).toBeVisible();
  const answer = `画面の見方をお送りします ${stamp}`;
  await consolePage.getByTestId('support-reply').fill(answer);
  await consolePage.getByTestId('support-send').click();
  await expect(consolePage.getByTestId('support-attachment')).toHaveCount(0);
  await consolePage.close();

  // the answer with its picture arrives without a reload
  const theirs = messages.locator('li[data-from="staff"]').filter({ hasText: answer });
  await expect(theirs).toBeVisible();
  await expect(theirs.getByRole('img', { name: 'サポートからの画像' })).toBeVisible();
  await axeClean(page);
});
