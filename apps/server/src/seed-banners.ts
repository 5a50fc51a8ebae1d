import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { TBannerText } from '@kabuto/contract';
import type { Db } from './db/types.js';
import { banners, uploads } from './db/schema.js';
import type { Clock } from './lib/clock.js';
import { audit } from './modules/console/audit.js';
import { thumbnailKey, type UploadStore } from './modules/uploads/storage.js';

/** The banners' picture size: 5:2, as the home page's slot (apps/web `.home-banners`). */
export const BANNER_WIDTH = 750;
export const BANNER_HEIGHT = 300;

interface DemoBanner {
  link: string;
  /** two colours of the gradient and the accent of the shapes: a picture without any text or font */
  colors: [string, string, string];
  texts: TBannerText[];
}

/** Three demo banners: the IPO page, the follow-up products, and the FSA's counselling office (webview). */
const DEMO_BANNERS: DemoBanner[] = [
  {
    link: '/subPackages/index/ipo/ipo',
    colors: ['#8a1c1c', '#c2410c', '#fde68a'],
    texts: [
      { locale: 'ja', title: '新規公開株（IPO）の抽選に参加', alt: '赤い背景に昇る太陽の図形' },
      { locale: 'en', title: 'Apply for new listings (IPOs)', alt: 'A rising sun shape on a red background' },
      { locale: 'zh-Hans', title: '参与新股（IPO）抽签', alt: '红色背景上的旭日图形' },
      { locale: 'zh-Hant', title: '參與新股（IPO）抽籤', alt: '紅色背景上的旭日圖形' },
      {
        locale: 'es',
        title: 'Participe en las salidas a bolsa (OPV)',
        alt: 'Un sol naciente sobre fondo rojo',
      },
      {
        locale: 'fr',
        title: 'Participez aux introductions en Bourse',
        alt: 'Un soleil levant sur fond rouge',
      },
    ],
  },
  {
    link: '/subPackages/index/gendan/gendan',
    colors: ['#0f3d5e', '#0e7490', '#a5f3fc'],
    texts: [
      { locale: 'ja', title: 'モデルポートフォリオの投資信託', alt: '青い背景に並ぶ棒グラフの図形' },
      { locale: 'en', title: 'Model-portfolio funds', alt: 'Bar chart shapes on a blue background' },
      { locale: 'zh-Hans', title: '模型组合基金', alt: '蓝色背景上的柱状图图形' },
      { locale: 'zh-Hant', title: '模型組合基金', alt: '藍色背景上的長條圖圖形' },
      { locale: 'es', title: 'Fondos de cartera modelo', alt: 'Barras de un gráfico sobre fondo azul' },
      { locale: 'fr', title: 'Fonds à portefeuille modèle', alt: 'Des barres de graphique sur fond bleu' },
    ],
  },
  {
    link: 'https://www.fsa.go.jp/receipt/soudansitu/',
    colors: ['#3f3f46', '#52525b', '#fbbf24'],
    texts: [
      { locale: 'ja', title: '投資詐欺の相談は金融庁へ', alt: '灰色の背景に黄色の注意の三角形' },
      { locale: 'en', title: 'Report investment fraud to the FSA', alt: 'A yellow warning triangle on grey' },
      { locale: 'zh-Hans', title: '遇到投资诈骗请咨询金融厅', alt: '灰色背景上的黄色警示三角形' },
      { locale: 'zh-Hant', title: '遇到投資詐騙請洽金融廳', alt: '灰色背景上的黃色警示三角形' },
      {
        locale: 'es',
        title: 'Denuncie el fraude a la FSA',
        alt: 'Un triángulo de aviso amarillo sobre gris',
      },
      {
        locale: 'fr',
        title: 'Signalez les escroqueries à la FSA',
        alt: 'Un triangle d’avertissement jaune sur gris',
      },
    ],
  },
];

/** The picture of a demo banner: a gradient and a few shapes (SVG, no text), as a small JPEG. */
export async function demoBannerPicture(index: number): Promise<Buffer> {
  const banner = DEMO_BANNERS[index];
  if (!banner) throw new Error(`no demo banner ${index}`);
  const [from, to, accent] = banner.colors;
  const shapes = [
    `<circle cx="610" cy="230" r="120" fill="${accent}" fill-opacity="0.85"/>`,
    `<g fill="${accent}" fill-opacity="0.8">${[0, 1, 2, 3, 4]
      .map((i) => `<rect x="${500 + i * 45}" y="${200 - i * 30}" width="30" height="${60 + i * 30}" rx="4"/>`)
      .join('')}</g>`,
    `<path d="M610 60 L700 230 L520 230 Z" fill="${accent}"/><rect x="604" y="110" width="12" height="70" fill="${from}"/><circle cx="610" cy="205" r="8" fill="${from}"/>`,
  ][index];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${BANNER_WIDTH}" height="${BANNER_HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${shapes ?? ''}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 72, mozjpeg: true }).toBuffer();
}

/**
 * Publishes the demo's three home banners once (any banner already there: nothing), with their pictures made
 * now, stored like uploads, and an audit row by the system saying the demo seed made them.
 */
export async function seedDemoBanners(db: Db, clock: Clock, store: UploadStore): Promise<void> {
  const [any] = await db.select({ id: banners.id }).from(banners).limit(1);
  if (any) return;
  const now = clock.now();
  const pictures = await Promise.all(DEMO_BANNERS.map((_, i) => demoBannerPicture(i)));
  const ids = pictures.map(() => randomBytes(32).toString('hex'));
  for (const [i, bytes] of pictures.entries()) {
    const id = ids[i] ?? '';
    await store.put(id, bytes);
    await store.put(thumbnailKey(id), bytes);
  }
  await db.transaction(async (tx) => {
    const created: number[] = [];
    for (const [i, b] of DEMO_BANNERS.entries()) {
      const bytes = pictures[i] ?? Buffer.alloc(0);
      const uploadId = ids[i] ?? '';
      // the system's banner image: no user, no operator (uploads_owner_ck allows it for banners only)
      await tx.insert(uploads).values({
        id: uploadId,
        userId: null,
        operatorId: null,
        purpose: 'banner',
        contentType: 'image/jpeg',
        size: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        createdAt: now,
      });
      const [row] = await tx
        .insert(banners)
        .values({
          state: 'published',
          uploadId,
          texts: b.texts,
          link: b.link,
          sortOrder: (i + 1) * 10,
          startsAt: now,
          endsAt: null,
          updatedAt: now,
          createdAt: now,
        })
        .returning({ id: banners.id });
      if (row) created.push(row.id);
    }
    await audit(tx, {
      operatorId: null,
      action: 'banner.seed',
      targetType: 'banner',
      reason: 'demo seed: sample home banners',
      after: { banners: created },
      at: now,
    });
  });
}
