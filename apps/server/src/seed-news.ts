import { and, isNull } from 'drizzle-orm';
import type { Locale, TNewsCategory, TServiceChannel } from '@kabuto/contract';
import type { Db } from './db/types.js';
import { newsArticleVersions, newsArticles, settings } from './db/schema.js';
import type { Clock } from './lib/clock.js';
import { audit } from './modules/console/audit.js';
import { renderMarkdown } from './modules/news/sanitize.js';

interface DemoArticle {
  category: TNewsCategory;
  codes: string[];
  pinned?: boolean;
  hoursAgo: number;
  versions: Partial<Record<Locale, { title: string; body: string }>>;
}

/** A dozen articles across categories and languages (some only in Japanese, to show the fallback). */
const ARTICLES: DemoArticle[] = [
  {
    category: 'notice',
    codes: [],
    pinned: true,
    hoursAgo: 1,
    versions: {
      ja: {
        title: '【重要】当社を装った投資詐欺にご注意ください',
        body: '当社の社員が**個人名義の口座への入金**をお願いしたり、**パスワードや暗証番号**をお尋ねしたりすることは一切ありません。\n\n不審な連絡を受けた場合は、[金融庁 金融サービス利用者相談室](https://www.fsa.go.jp/receipt/soudansitu/index.html)（0570-016811）へご相談ください。',
      },
      en: {
        title: 'Important: beware of investment fraud in our name',
        body: 'Our staff will **never** ask you to deposit money to a personal account, or for your password or PIN.\n\nIf you are contacted, call the [FSA Counseling Office](https://www.fsa.go.jp/en/) (0570-016811).',
      },
      'zh-Hans': {
        title: '【重要】请警惕冒充本公司的投资诈骗',
        body: '本公司员工**绝不会**要求您向个人账户汇款，也不会索要您的密码。\n\n如有可疑联系，请咨询[日本金融厅](https://www.fsa.go.jp/en/)（0570-016811）。',
      },
      'zh-Hant': {
        title: '【重要】請提防冒充本公司的投資詐騙',
        body: '本公司員工**絕不會**要求您匯款至個人帳戶，也不會索取您的密碼。\n\n如有可疑聯絡，請洽[日本金融廳](https://www.fsa.go.jp/en/)（0570-016811）。',
      },
      es: {
        title: 'Importante: cuidado con los fraudes de inversión en nuestro nombre',
        body: 'Nuestro personal **nunca** le pedirá ingresos en una cuenta personal ni su contraseña.\n\nSi le contactan, llame a la [FSA](https://www.fsa.go.jp/en/) (0570-016811).',
      },
      fr: {
        title: 'Important : méfiez-vous des escroqueries à l’investissement en notre nom',
        body: 'Notre personnel ne vous demandera **jamais** de virement vers un compte personnel ni votre mot de passe.\n\nEn cas de contact suspect, appelez la [FSA](https://www.fsa.go.jp/en/) (0570-016811).',
      },
    },
  },
  {
    category: 'market',
    codes: [],
    hoursAgo: 2,
    versions: {
      ja: {
        title: '東証大引け：日経平均は反発、半導体株に買い戻し',
        body: '日経平均株価は前日比で反発して取引を終えました。値がさの半導体関連株に買い戻しが入り、指数を押し上げました。\n\n*この記事はデモ用のサンプルです。*',
      },
      en: {
        title: 'Tokyo close: Nikkei rebounds as chip stocks recover',
        body: 'The Nikkei 225 closed higher, led by a rebound in heavyweight semiconductor stocks.\n\n*A demo sample article.*',
      },
    },
  },
  {
    category: 'company',
    codes: ['7203'],
    hoursAgo: 4,
    versions: {
      ja: {
        title: 'トヨタ自動車、ハイブリッド車の販売が好調',
        body: 'トヨタ自動車（7203）は、ハイブリッド車の世界販売が前年同期を上回ったと発表しました。\n\n*デモ用のサンプル記事です。*',
      },
      en: {
        title: 'Toyota reports strong hybrid sales',
        body: 'Toyota Motor (7203) said global hybrid sales rose year on year.\n\n*A demo sample article.*',
      },
      fr: {
        title: 'Toyota annonce de fortes ventes d’hybrides',
        body: 'Toyota Motor (7203) annonce une hausse de ses ventes mondiales d’hybrides sur un an.\n\n*Article d’exemple.*',
      },
    },
  },
  {
    category: 'company',
    codes: ['6758'],
    hoursAgo: 6,
    versions: {
      ja: {
        title: 'ソニーグループ、ゲーム事業の見通しを据え置き',
        body: 'ソニーグループ（6758）はゲーム＆ネットワークサービス分野の通期見通しを据え置きました。\n\n*デモ用のサンプル記事です。*',
      },
    },
  },
  {
    category: 'research',
    codes: [],
    hoursAgo: 8,
    versions: {
      ja: {
        title: '新NISA成長投資枠の使い方：年間240万円の枠を活かす',
        body: '成長投資枠は年間**240万円**、生涯で**1,200万円**まで利用できます。売却した分の枠は翌年に復活します。\n\n- 分散投資を心がける\n- 手数料と信託報酬を確認する',
      },
      en: {
        title: 'Making the most of the NISA growth quota',
        body: 'The growth quota allows **¥2.4 million** a year and **¥12 million** over a lifetime. Quota used by a sale comes back the next year.\n\n- Diversify\n- Check fees',
      },
      'zh-Hans': {
        title: '新NISA成长投资额度的使用方法',
        body: '成长投资额度每年**240万日元**，终身**1,200万日元**。卖出所用额度次年恢复。',
      },
    },
  },
  {
    category: 'market',
    codes: ['8306', '8316'],
    hoursAgo: 10,
    versions: {
      ja: {
        title: '銀行株が上昇、長期金利の上昇を好感',
        body: '三菱UFJフィナンシャル・グループ（8306）や三井住友フィナンシャルグループ（8316）など銀行株が買われました。',
      },
      en: {
        title: 'Banks rise as long-term yields climb',
        body: 'Bank stocks such as MUFG (8306) and SMFG (8316) gained as yields rose.',
      },
      es: {
        title: 'Los bancos suben con la rentabilidad a largo plazo',
        body: 'Valores bancarios como MUFG (8306) y SMFG (8316) subieron con los rendimientos.',
      },
    },
  },
  {
    category: 'notice',
    codes: [],
    hoursAgo: 20,
    versions: {
      ja: {
        title: '年末年始の営業日と入出金の取扱いについて',
        body: '12月31日から1月3日までは東京証券取引所の休業日です。この間の出金申請は1月5日以降に処理します。',
      },
      en: {
        title: 'Year-end holidays: trading days and transfers',
        body: 'The Tokyo Stock Exchange is closed from 31 December to 3 January. Withdrawals requested then are processed from 5 January.',
      },
    },
  },
  {
    category: 'company',
    codes: ['9984'],
    hoursAgo: 26,
    versions: {
      ja: {
        title: 'ソフトバンクグループ、AI関連投資を拡大',
        body: 'ソフトバンクグループ（9984）はAI関連企業への投資を拡大する方針を示しました。',
      },
      'zh-Hant': { title: '軟銀集團擴大AI相關投資', body: '軟銀集團（9984）表示將擴大對AI相關企業的投資。' },
    },
  },
  {
    category: 'research',
    codes: [],
    hoursAgo: 30,
    versions: {
      ja: {
        title: 'ストップ高・ストップ安とは：値幅制限の仕組み',
        body: '東証では前日の終値を基準に、1日に動ける値幅（**制限値幅**）が決まっています。上限まで上がることを**ストップ高**、下限まで下がることを**ストップ安**といいます。',
      },
      en: {
        title: 'Limit up and limit down: how daily price limits work',
        body: 'The TSE sets a daily price range from the previous close. Reaching its top is **limit up**; its bottom, **limit down**.',
      },
      fr: {
        title: 'Limites de variation quotidienne à Tokyo',
        body: 'La bourse de Tokyo fixe une fourchette de prix quotidienne à partir de la clôture de la veille.',
      },
    },
  },
  {
    category: 'market',
    codes: [],
    hoursAgo: 34,
    versions: {
      ja: { title: '為替：円相場は小幅な値動き', body: '円相場は対ドルで小幅な値動きにとどまりました。' },
      'zh-Hans': { title: '汇市：日元小幅波动', body: '日元兑美元小幅波动。' },
    },
  },
  {
    category: 'company',
    codes: ['6861'],
    hoursAgo: 40,
    versions: {
      en: {
        title: 'Keyence orders steady, says company',
        body: 'Keyence (6861) said orders were steady across regions.',
      },
    },
  },
  {
    category: 'research',
    codes: [],
    hoursAgo: 48,
    versions: {
      ja: {
        title: '特定口座（源泉徴収あり）なら確定申告は原則不要',
        body: '特定口座（源泉徴収あり）では、売却益や配当にかかる税金が自動で源泉徴収されます。',
      },
      es: {
        title: 'Cuenta especial con retención: sin declaración en la mayoría de casos',
        body: 'En la cuenta especial con retención, los impuestos sobre ganancias y dividendos se retienen automáticamente.',
      },
    },
  },
];

/** The channels the demo shows on its customer-service page (operators replace them in the console). */
const WEEKDAYS = { days: [1, 2, 3, 4, 5], opens: '09:00', closes: '17:00' };
const DEMO_CHANNELS: TServiceChannel[] = [
  { name: 'LINE', url: 'https://line.me/R/ti/p/@kabuto-demo', schedule: WEEKDAYS },
  { name: 'WhatsApp', url: 'https://wa.me/810000000000', schedule: WEEKDAYS },
  { name: 'Telegram', url: 'https://t.me/kabuto_demo', schedule: WEEKDAYS },
  {
    name: 'E-mail',
    url: 'mailto:support@kabuto.example',
    hours: 'Reply within 1 business day / 1営業日以内に返信',
  },
  {
    name: '0120-000-000',
    url: 'tel:0120000000',
    schedule: { days: [1, 2, 3, 4, 5, 6], opens: '08:30', closes: '17:00' },
  },
];

/**
 * The demo's news (ADR 0029): a dozen articles and the customer-service channels, once; later starts
 * change nothing. Market events need no seed: they are derived from the market data.
 */
export async function seedDemoNews(db: Db, clock: Clock): Promise<void> {
  const [any] = await db
    .select({ id: newsArticles.id })
    .from(newsArticles)
    .where(and(isNull(newsArticles.feedId)))
    .limit(1);
  if (any) return;
  const now = clock.now();
  await db.transaction(async (tx) => {
    for (const a of ARTICLES) {
      const at = new Date(now.getTime() - a.hoursAgo * 3_600_000);
      const [row] = await tx
        .insert(newsArticles)
        .values({
          state: 'published',
          category: a.category,
          codes: a.codes,
          pinned: a.pinned ?? false,
          publishAt: at,
          updatedAt: at,
          createdAt: at,
        })
        .returning({ id: newsArticles.id });
      if (!row) continue;
      await tx.insert(newsArticleVersions).values(
        Object.entries(a.versions).map(([locale, v]) => ({
          articleId: row.id,
          locale,
          title: v.title,
          body: v.body,
          html: renderMarkdown(v.body),
        })),
      );
    }
    await tx
      .insert(settings)
      .values({
        key: 'customer_service',
        value: JSON.stringify(DEMO_CHANNELS),
        updatedBy: null,
        updatedAt: now,
      })
      .onConflictDoNothing();
    await audit(tx, {
      operatorId: null,
      action: 'news.seed',
      targetType: 'news_article',
      reason: 'demo seed: sample articles and customer-service channels',
      after: { articles: ARTICLES.length, channels: DEMO_CHANNELS.length },
      at: now,
    });
  });
}
