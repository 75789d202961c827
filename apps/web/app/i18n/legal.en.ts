/** User agreement and privacy policy, English. Same shape as legal.zh.ts. */
import { SITE } from '../config.ts';
import type { LegalTexts } from './legal.zh.ts';

export const legalEn: LegalTexts = {
  updated: '1 January 2025',
  userAgreement: {
    intro: [
      'Welcome to CFX Art (the "Platform"). This agreement between you and the operator of the Platform governs registration, login and your use of the Platform\'s digital-collectible releases, consignment trading and related services.',
      'Please read it carefully before you register, in particular the clauses that exclude or limit liability. By ticking "I have read and agree" and completing registration or login, you confirm that you understand and accept the whole agreement.',
    ],
    sections: [
      {
        heading: '1. Who may use the Platform',
        paragraphs: [
          'You confirm that you are at least 18 years old and have full civil capacity when you register and use the services. Users under 18 may not register or buy, sell or transfer anything on the Platform.',
          'To comply with the law you must complete real-name verification and link a digital wallet of your own before trading. The Platform may check the information you provide and may restrict trading for accounts whose information is untrue, inaccurate or incomplete.',
        ],
      },
      {
        heading: '2. What a digital collectible is',
        paragraphs: [
          'A digital collectible released or traded on the Platform is a uniquely identified certificate of a digital work, created on the Conflux public chain. It is not money, a security, a futures contract or any other financial product, has no payment function, and carries no promise of any return.',
          'Digital collectibles are virtual goods: once sold, they are not covered by the 7-day no-reason return. Read the description, the sale rules and the risk notices before you buy, and buy rationally.',
          'Unless expressly agreed otherwise, buying a collectible gives you ownership of its certificate and the licence granted by the issuer, not the copyright or other intellectual-property rights in the work.',
        ],
      },
      {
        heading: '3. Primary sales',
        paragraphs: [
          'In a primary sale (release) you pay the sale price shown on the page. Quantities, times, purchase limits and conditions are those published on the project page.',
          'After payment, the collectible is registered to your linked wallet address once it is confirmed on chain. A short delay caused by network or chain congestion is not a breach of this agreement.',
        ],
      },
      {
        heading: '4. The free-trade (consignment) market',
        paragraphs: [
          'Subject to the market rules (for example holding periods), you may list collectibles you hold on the free-trade market. When a listing sells, the Platform deducts a service commission, a percentage of the sale price; the rate is published on the site and shown before you list and before the buyer pays.',
          'Once the buyer has paid, the Platform executes the on-chain order you signed to transfer the collectible, and settles the proceeds, less commission and any royalty, to your payout account.',
        ],
      },
      {
        heading: '5. Digital wallets',
        paragraphs: [
          'Digital wallets are provided and run by third parties; the Platform never holds your private key or recovery phrase. Keep your wallet credentials and keys safe: losses caused by their disclosure are your own responsibility.',
          'The Platform does not guarantee the availability of third-party wallets, but will reasonably help you with issues that concern trades on the Platform.',
        ],
      },
      {
        heading: '6. Prohibited conduct',
        paragraphs: [
          'You must not use the Platform for: speculation in collectibles, driving up prices or otherwise manipulating prices; off-platform, private or disguised trading of the Platform\'s collectibles; money laundering, illegal fund-raising, gambling or any other unlawful activity; bots, scripts, bulk registrations or similar means of gaining an unfair advantage; infringing the intellectual-property or other rights of others.',
          'Where such conduct is found, the Platform may warn you, restrict trading, freeze or close the account as the case requires, and report to the authorities as the law requires.',
        ],
      },
      {
        heading: '7. Taxes',
        paragraphs: ['You declare and pay yourself any taxes that arise from your use of the services, including the sale of collectibles, as the law requires.'],
      },
      {
        heading: '8. Account security',
        paragraphs: [
          'Your account signs in with your phone number. Keep your password and SMS codes to yourself; Platform staff will never ask for them for any reason.',
          'If your account is used without your permission or is at risk, change your password at once and contact customer service.',
        ],
      },
      {
        heading: '9. Limitation of liability',
        paragraphs: [
          'To the extent permitted by law, the Platform is not liable for interruptions or losses caused by events outside its control, such as force majeure, blockchain network failures, third-party outages, attacks or changes in policy, but it will do its best to help you limit any loss.',
        ],
      },
      {
        heading: '10. Changes and disputes',
        paragraphs: [
          'The Platform may amend this agreement when the law or its business requires; amendments are published on the Platform. Continuing to use the services after an amendment means you accept it.',
          'This agreement is governed by the laws of the People\'s Republic of China (excluding Hong Kong, Macao and Taiwan). Disputes should first be settled by negotiation; failing that, either party may sue in the competent people\'s court where the operator is located.',
        ],
      },
    ],
  },
  privacyPolicy: {
    intro: [
      'We take the protection of your personal information seriously. This policy explains how CFX Art collects, uses, stores, shares and protects your personal information when you use the services, and the rights you have.',
    ],
    sections: [
      {
        heading: '1. Information we collect',
        paragraphs: [
          'Account information: the phone number you register and log in with, and the nickname and avatar you choose.',
          'Identity information: your name and ID-document details when you complete real-name verification, to meet legal real-name requirements and prevent fraud.',
          'Wallet information: the address of the digital wallet you link, and your on-chain transactions.',
          'Device and log information: device identifiers, browser type, operating system, IP address and access times, to keep your account and trades safe.',
          'Usage information: search history, browsing, follows and favourites, to provide search history and improve the services.',
        ],
      },
      {
        heading: '2. How we use it',
        paragraphs: [
          'To register and sign you in, verify your identity, process and settle orders, provide customer service, control risk and keep the services secure, and, with your consent, to personalise recommendations. You can switch personalised recommendations off in the personal center.',
        ],
      },
      {
        heading: '3. Cookies and local storage',
        paragraphs: [
          'We use a cookie to remember your language, and the browser\'s local storage to keep you signed in and, if you tick the box, to remember your account. You can clear cookies and local storage in your browser; you may then need to log in again.',
        ],
      },
      {
        heading: '4. Sharing',
        paragraphs: [
          'We do not share your personal information with third parties except: the order details a payment institution needs to complete payment and settlement; the details a lawfully established verification service needs to verify your identity; the transaction data submitted to the blockchain network to perform on-chain operations (on-chain data is public and cannot be altered); and where laws, regulations or competent authorities require it.',
        ],
      },
      {
        heading: '5. Storage',
        paragraphs: [
          'Personal information collected and generated in the People\'s Republic of China is stored on servers in mainland China. We keep it only as long as the purposes in this policy require, unless the law requires otherwise.',
        ],
      },
      {
        heading: '6. Security',
        paragraphs: [
          'We protect your information with encrypted transport, salted password hashing, encrypted storage of ID numbers and access controls. If a personal-information security incident occurs, we will inform you promptly as the law requires.',
        ],
      },
      {
        heading: '7. Your rights',
        paragraphs: [
          'You may view and correct your personal information, delete your search history and withdraw consent to personalised recommendations.',
          'You have the right to cancel your account. Before cancelling, make sure there are no open orders or listings and that you have dealt with the collectibles you hold. After cancellation we delete or anonymise your personal information, except where the law requires us to keep it.',
        ],
      },
      {
        heading: '8. Minors',
        paragraphs: ['The services are only for users aged 18 or over. If we learn that we have collected a minor\'s personal information without verification, we will delete it promptly.'],
      },
      {
        heading: '9. Contact',
        paragraphs: [`For questions, comments or complaints about this policy, email ${SITE.serviceEmail}; we will reply within 15 working days.`],
      },
    ],
  },
};
