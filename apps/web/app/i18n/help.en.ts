/** Help-center articles, English. Same shape as help.zh.ts. */
import { SITE } from '../config.ts';
import type { HelpTexts } from './help.zh.ts';

export const helpEn: HelpTexts = {
  updated: '2025-01-01',
  articles: {
    'part1-1': {
      intro: 'The law requires real-name verification before you buy, sell or give away digital collectibles. You verify once; after that every trading feature is open to you.',
      sections: [
        {
          heading: 'Why we verify',
          paragraphs: [
            'Verification confirms that the account belongs to you and that you are 18 or older. It protects against stolen accounts, money laundering and fraudulent trades, and it is how the Platform meets its legal duty to check user identities.',
          ],
        },
        {
          heading: 'Steps',
          items: [
            'Log in and open "Personal center - Account settings".',
            'Under "Real-name verification", click "Verify" and enter your real name and resident ID number.',
            'Complete the face check or SMS check as the page asks.',
            'The result usually comes back within a minute, and the status changes to "Verified".',
          ],
        },
        {
          heading: 'Good to know',
          items: [
            'One ID document can verify only one account, and a verified account cannot switch to someone else\'s document.',
            'Users under 18 cannot pass verification and cannot trade.',
            'ID numbers are stored encrypted; pages only ever show a masked version.',
            'If you see "ID details do not match", check rare characters in your name and the expiry date of the document; if it still fails, contact customer service.',
          ],
        },
      ],
    },
    'part1-2': {
      intro: 'Every trade happens inside the Platform. Anyone who asks you to transfer money privately, trade through a chat app or share a verification code is very likely a scammer.',
      sections: [
        {
          heading: 'Common scams',
          items: [
            'Someone pretends to be customer service, claims your account is "abnormal" or that you are owed a refund, and asks for an SMS code or a transfer.',
            'Collectibles offered cheaply in chat groups, with payment outside the Platform "first".',
            'Promises of "insider" early access, guaranteed profits or buy-backs at a high price.',
            'Phishing links that imitate the Platform and ask for your password or wallet recovery phrase.',
          ],
        },
        {
          heading: 'Protect yourself',
          items: [
            'Order and pay only on the Platform\'s pages; never transfer money to a personal account.',
            'Our staff never ask for your password, verification codes or wallet keys.',
            'Check that the address is the Platform\'s official domain before you log in; do not open links from unknown sources.',
            'Be wary of "can\'t lose" or "guaranteed to rise" claims: collectibles are not investments.',
          ],
        },
        {
          heading: 'If something looks wrong',
          paragraphs: [
            `Stop at once, keep the chat records and payment receipts, and email us at ${SITE.serviceEmail}. If you have lost money, report it to your local police without delay.`,
          ],
        },
      ],
    },
    'part2-1': {
      intro: 'A digital wallet is your account on the blockchain: it receives, holds and transfers collectibles. Collectibles on this Platform are minted on the Conflux public chain, so you need a wallet that supports Conflux.',
      sections: [
        {
          heading: 'Addresses and private keys',
          paragraphs: [
            'A wallet address is like a postal address: you can share it. Conflux mainnet addresses start with "cfx:". The private key and recovery phrase are the keys to the safe: whoever has them controls everything in the wallet. Keep them offline and never tell anyone.',
          ],
        },
        {
          heading: 'Linking a wallet',
          items: [
            'Install a browser wallet that supports Conflux (for example Fluent), create or import a wallet, and back up the recovery phrase.',
            'Switch the wallet to the Conflux mainnet (network id 1029).',
            'Log in to the Platform, click "Link wallet" at the top of the page, and approve the connection in the wallet.',
            'Once connected, your address appears in the personal center.',
          ],
        },
        {
          heading: 'Questions',
          items: [
            'If you are asked to switch the wallet to the Conflux mainnet, change the network in the wallet and connect again.',
            'Listing a collectible asks you to sign in the wallet. Signing costs nothing and does not move your assets.',
            'Wallets are third-party products: the Platform cannot recover a lost recovery phrase.',
          ],
        },
      ],
    },
    'part2-2': {
      intro: 'All you need is a mainland-China mobile number; registration takes about a minute.',
      sections: [
        {
          heading: 'Steps',
          items: [
            'Click "Log in / Sign up" at the top right and choose "Sign up".',
            'Enter your 11-digit phone number and a password of 6-20 digits, letters or symbols, then repeat the password.',
            'Enter a friend\'s invite code if you have one (optional, up to 6 characters); invite links fill it in for you.',
            'Click "Get code", complete the slider security check, and enter the 6-digit SMS code you receive.',
            'Read and tick the User Agreement and Privacy Policy, then click "Sign up".',
          ],
        },
        {
          heading: 'After signing up',
          items: [
            'Change your avatar and nickname in "Personal center - Account settings".',
            'Verify your real name and link a digital wallet to join releases and the market.',
          ],
        },
        {
          heading: 'No SMS code?',
          items: [
            'A code can be requested once every 60 seconds; watch the countdown on the button.',
            'Check whether your phone blocks SMS messages, or try again a little later.',
            'Each number has a daily limit; once reached, please try again the next day.',
          ],
        },
      ],
    },
    'part3-1': {
      intro: 'Artists, brands, museums and IP owners are welcome to release digital collectibles on CFX Art.',
      sections: [
        {
          heading: 'How it works',
          items: [
            'Click "Enlist a project" in the top menu and fill in the application: who you are, a contact person, the project, sample works and the planned quantity.',
            'Upload proof of copyright or a licence for the works.',
            'We review the application within 5 working days and reply using the contact details you gave.',
            'After approval we agree the release plan (price, quantity, sale time, royalty rate) and sign a cooperation agreement.',
            'The works are minted on chain, the project page goes live and the sale opens as planned.',
          ],
        },
        {
          heading: 'What to prepare',
          items: [
            'A business licence, or personal ID for individuals.',
            'A copyright registration certificate or a licence from the rights holder.',
            'High-resolution files of the works (images, video or 3D models) and their descriptions.',
          ],
        },
        {
          heading: 'Creator page',
          paragraphs: ['Once your project is released you become a creator with your own page, where you can post moments, manage projects and talk to collectors. The "Enlist a project" menu item then opens your creator page directly.'],
        },
      ],
    },
    'part3-2': {
      intro: 'To protect collectors and keep the market healthy, every project must meet these requirements.',
      sections: [
        {
          heading: 'Content',
          items: [
            'Works must comply with the law and public order and good morals: no illegal, violent, pornographic, gambling or discriminatory content.',
            'The issuer must hold full rights or a lawful licence, without infringing anyone\'s copyright, trademark or portrait rights.',
            'Descriptions must be true and accurate, without exaggeration, promised returns or buy-backs.',
          ],
        },
        {
          heading: 'Releases',
          items: [
            'Collectibles may not be split into fractional shares or given features of financial products.',
            'Quantity, price and sale rules must be published on the project page in advance; no extra issuance afterwards.',
            'Issuers must not take part in or organise speculation, price inflation or off-platform trading.',
          ],
        },
        {
          heading: 'Enforcement',
          paragraphs: ['We monitor live projects continuously. Violations lead, depending on their seriousness, to removal of the project, suspension of settlement or termination of cooperation, and liability under the law.'],
        },
      ],
    },
    'part4-1': {
      intro: 'CFX Art is a digital-collectibles platform on the Conflux public chain. We want creating, collecting and trading digital art to be transparent and trustworthy.',
      sections: [
        {
          heading: 'What we do',
          paragraphs: [
            'For creators we offer one-stop releases, from minting through the primary sale to secondary trading. For collectors we offer releases, consignment trading, news and a community. Every collectible has a publicly verifiable on-chain record, so its origin and history are always clear.',
          ],
        },
        {
          heading: 'Our principles',
          items: [
            'Compliance first: real-name verification, the 18+ age limit and anti-money-laundering and anti-speculation rules apply to every trade.',
            'Safe assets: ownership is recorded on chain, settlements are traceable, and key actions need your own signature.',
            'Respect for creators: we protect copyright and help creators earn ongoing royalties.',
          ],
        },
        {
          heading: 'Contact',
          paragraphs: [`Customer service: ${SITE.serviceEmail} (Monday to Sunday, 9:00-21:00 China time).`],
        },
      ],
    },
    'part4-2': {
      intro: 'We look forward to exploring digital collectibles together with brands, IP owners, museums, artists and technology partners.',
      sections: [
        {
          heading: 'Ways to work together',
          items: [
            'Co-branded collectible releases and marketing campaigns.',
            'Digitising and promoting museum and intangible-heritage IP.',
            'Artist exhibitions and series premieres.',
            'Custom digital passes such as memberships and tickets.',
            'Technology partnerships: wallets, payments, storage.',
          ],
        },
        {
          heading: 'Get in touch',
          paragraphs: [
            `Send your proposal (who you are, what you have in mind, a contact person and details) to ${SITE.serviceEmail} with "Business cooperation" in the subject line. We reply within 3 working days.`,
          ],
        },
      ],
    },
    'part5-1': {
      intro: 'Frequently asked questions about the free-trade (consignment) market.',
      sections: [
        {
          heading: 'What is consignment?',
          paragraphs: ['A holder lists a collectible on the free-trade market at a price of their choice. When another user pays, the Platform executes the on-chain order the holder signed, transferring the collectible and settling the money.'],
        },
        {
          heading: 'What do I need to list?',
          items: ['Real-name verification and an age of 18 or more.', 'A linked and connected digital wallet that holds the collectible.', 'Any holding period set by the project has passed.'],
        },
        {
          heading: 'What fees are charged?',
          paragraphs: ['When a listing sells, the Platform takes a service commission, a percentage of the sale price; some projects add a creator royalty. The exact rates are shown before you list and before the buyer pays. Nothing is charged if nothing sells.'],
        },
        {
          heading: 'How do I cancel a listing?',
          paragraphs: ['In "Personal center - My listings", choose the collectible, click "Take off shelf" and confirm in your wallet. The order stops being valid at once and nobody can buy it any more.'],
        },
        {
          heading: 'When do I get paid?',
          paragraphs: ['After the buyer pays, the Platform transfers the collectible on chain automatically and, once confirmed, settles the proceeds less fees to your payout account, usually within minutes; chain congestion can add a short delay.'],
        },
        {
          heading: 'Can I return a collectible?',
          paragraphs: ['Collectibles are virtual goods and are not covered by the 7-day no-reason return once sold. Check the details and the price carefully before you buy.'],
        },
        {
          heading: 'Can I trade privately?',
          paragraphs: ['No. Off-platform trades and private transfers are prohibited: they carry no protection and may involve fraud or money laundering. Accounts that break this rule will have trading restricted.'],
        },
      ],
    },
  },
};
