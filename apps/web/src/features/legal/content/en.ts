import type { LegalTexts } from './types';

export const en: LegalTexts = [
  {
    id: 'user',
    title: 'User Agreement',
    sections: [
      {
        heading: 'Article 1. Scope',
        paragraphs: [
          'This agreement sets out the terms on which Kabuto (the "Company") provides this app and its services. By opening an account you accept this agreement. It applies from 20 June 2025.',
        ],
      },
      {
        heading: 'Article 2. Your account',
        paragraphs: [
          'Each person may hold one account, registered with a mobile number in their own name. You may not lend, sell or share your account.',
          'Keep your login password and transaction password secret. The Company never asks for your passwords by telephone, chat, e-mail or social media.',
        ],
      },
      {
        heading: 'Article 3. Market data in the demo',
        paragraphs: [
          'In the demonstration version of the app, prices, charts and other market data are simulated. They are not real exchange prices, and orders placed in the demo are not sent to any exchange.',
        ],
      },
      {
        heading: 'Article 4. Deposits and withdrawals',
        paragraphs: [
          "Deposits are accepted only through the deposit page of this app, to accounts in the Company's name shown there.",
          'Withdrawals are paid only to a bank account in your own name that you have registered. The minimum withdrawal is 10,000 yen and there is no withdrawal fee. Requests are accepted on business days from 9:00 to 11:30 and from 12:30 to 15:30 (Japan time) and are credited within 24 hours.',
          'The Company never asks for any fee, tax, deposit, "unlocking" payment or other payment in order to release a withdrawal. Anyone who asks you for such a payment is not acting for the Company.',
        ],
      },
      {
        heading: 'Article 5. Transfers requested in chats',
        paragraphs: [
          'The Company never asks you to transfer money to an account given in a chat, on social media, in a messaging app or by an individual. If anyone does, do not transfer anything and contact the Company through this app.',
        ],
      },
      {
        heading: 'Article 6. Risks',
        paragraphs: [
          'Investing in securities involves risk, including the loss of principal. Past performance does not guarantee future results. AI-assisted features are tools to support your own decisions and do not promise any profit.',
        ],
      },
      {
        heading: 'Article 7. Fees',
        paragraphs: [
          'Any fee for a transaction is shown to you before you confirm it. No fee is charged that was not shown.',
        ],
      },
      {
        heading: 'Article 8. Prohibited conduct',
        paragraphs: [
          "You may not use another person's identity, use the services for money laundering or other unlawful purposes, manipulate prices, or interfere with the operation of the services.",
        ],
      },
      {
        heading: 'Article 9. Changes and governing law',
        paragraphs: [
          'The Company announces changes to this agreement in the app before they take effect. This agreement is governed by the laws of Japan, and the Tokyo District Court has exclusive jurisdiction in the first instance.',
        ],
      },
    ],
  },
  {
    id: 'security',
    title: 'Security Terms',
    sections: [
      {
        heading: '1. Passwords',
        paragraphs: [
          'Use a password that you do not use elsewhere. After repeated failed logins the account is locked for a time to protect you.',
          'When you change your login password, every other signed-in session is signed out.',
        ],
      },
      {
        heading: '2. Suspicious contact',
        paragraphs: [
          'If someone claiming to be the Company asks for your password, a verification code or a transfer to an account given in a chat, it is fraud. Report it to the Company through this app.',
        ],
      },
    ],
  },
  {
    id: 'privacy',
    title: 'Privacy Policy',
    sections: [
      {
        heading: '1. Information we collect',
        paragraphs: [
          'Your mobile number, the identity documents required for verification under the Act on Prevention of Transfer of Criminal Proceeds, your bank account details, your transaction records and an anonymous device identifier.',
        ],
      },
      {
        heading: '2. How we use it',
        paragraphs: [
          'To provide and secure the services, to verify your identity as the law requires, to process deposits and withdrawals, and to answer your enquiries. We do not sell personal information.',
        ],
      },
      {
        heading: '3. Disclosure and your rights',
        paragraphs: [
          'We disclose personal information to third parties only with your consent or where the law requires it. You may ask to see, correct or delete your information through this app.',
        ],
      },
    ],
  },
];
