import type { LegalTexts } from './types';

export const fr: LegalTexts = [
  {
    id: 'user',
    title: "Conditions d'utilisation",
    sections: [
      {
        heading: 'Article 1. Objet',
        paragraphs: [
          "Les présentes conditions fixent les modalités selon lesquelles Kabuto (la « Société ») fournit cette application et ses services. En ouvrant un compte, vous les acceptez. Elles s'appliquent à compter du 20 juin 2025.",
        ],
      },
      {
        heading: 'Article 2. Votre compte',
        paragraphs: [
          "Chaque personne ne peut détenir qu'un seul compte, enregistré avec un numéro de mobile à son nom. Vous ne pouvez ni prêter, ni vendre, ni partager votre compte.",
          "Gardez secrets votre mot de passe de connexion et votre mot de passe d'opération. La Société ne vous demande jamais vos mots de passe par téléphone, messagerie instantanée, e-mail ou réseaux sociaux.",
        ],
      },
      {
        heading: 'Article 3. Données de marché de la démonstration',
        paragraphs: [
          "Dans la version de démonstration de l'application, les cours, graphiques et autres données de marché sont simulés. Ce ne sont pas des cours réels d'une bourse, et les ordres passés en démonstration ne sont transmis à aucune bourse.",
        ],
      },
      {
        heading: 'Article 4. Dépôts et retraits',
        paragraphs: [
          'Les dépôts sont acceptés uniquement via la page de dépôt de cette application, sur les comptes au nom de la Société qui y sont indiqués.',
          "Les retraits sont versés uniquement sur un compte bancaire à votre nom que vous avez enregistré. Le retrait minimum est de 10 000 yens et aucun frais de retrait n'est prélevé. Les demandes sont acceptées les jours ouvrés de 9 h à 11 h 30 et de 12 h 30 à 15 h 30 (heure du Japon) et sont créditées sous 24 heures.",
          "La Société ne demande jamais de frais, d'impôt, de dépôt de garantie, de paiement de « déblocage » ni aucun autre paiement pour libérer un retrait. Toute personne qui vous demande un tel paiement n'agit pas pour la Société.",
        ],
      },
      {
        heading: 'Article 5. Virements demandés dans une messagerie',
        paragraphs: [
          "La Société ne vous demande jamais de virer de l'argent sur un compte communiqué dans une messagerie, sur les réseaux sociaux ou par un particulier. Si quelqu'un le fait, ne virez rien et contactez la Société depuis cette application.",
        ],
      },
      {
        heading: 'Article 6. Risques',
        paragraphs: [
          "Investir en valeurs mobilières comporte des risques, y compris la perte du capital. Les performances passées ne préjugent pas des résultats futurs. Les fonctions assistées par l'IA sont des outils d'aide à vos propres décisions et ne promettent aucun gain.",
        ],
      },
      {
        heading: 'Article 7. Frais',
        paragraphs: [
          "Tous frais liés à une opération vous sont indiqués avant que vous la confirmiez. Aucun frais non indiqué n'est prélevé.",
        ],
      },
      {
        heading: 'Article 8. Comportements interdits',
        paragraphs: [
          "Il est interdit d'usurper l'identité d'une autre personne, d'utiliser les services à des fins de blanchiment ou à d'autres fins illicites, de manipuler les cours ou d'entraver le fonctionnement des services.",
        ],
      },
      {
        heading: 'Article 9. Modifications et droit applicable',
        paragraphs: [
          "La Société annonce dans l'application toute modification des présentes conditions avant son entrée en vigueur. Les présentes conditions sont régies par le droit japonais, et le tribunal de district de Tokyo est seul compétent en première instance.",
        ],
      },
    ],
  },
  {
    id: 'security',
    title: 'Conditions de sécurité',
    sections: [
      {
        heading: '1. Mots de passe',
        paragraphs: [
          "Utilisez un mot de passe que vous n'utilisez nulle part ailleurs. Après plusieurs échecs de connexion, le compte est verrouillé temporairement pour vous protéger.",
          'Lorsque vous modifiez votre mot de passe de connexion, toutes les autres sessions ouvertes sont fermées.',
        ],
      },
      {
        heading: '2. Contacts suspects',
        paragraphs: [
          "Si une personne se présentant comme la Société vous demande votre mot de passe, un code de vérification ou un virement vers un compte communiqué dans une messagerie, il s'agit d'une fraude. Signalez-la à la Société depuis cette application.",
        ],
      },
    ],
  },
  {
    id: 'privacy',
    title: 'Politique de confidentialité',
    sections: [
      {
        heading: '1. Informations collectées',
        paragraphs: [
          "Votre numéro de mobile, les pièces d'identité exigées pour la vérification par la loi japonaise sur la prévention du transfert des produits du crime, vos coordonnées bancaires, l'historique de vos opérations et un identifiant anonyme de l'appareil.",
        ],
      },
      {
        heading: '2. Utilisation',
        paragraphs: [
          "Pour fournir et sécuriser les services, vérifier votre identité comme l'exige la loi, traiter les dépôts et retraits et répondre à vos demandes. Nous ne vendons pas de données personnelles.",
        ],
      },
      {
        heading: '3. Communication à des tiers et vos droits',
        paragraphs: [
          "Nous ne communiquons des données personnelles à des tiers qu'avec votre consentement ou lorsque la loi l'exige. Vous pouvez demander l'accès à vos données, leur rectification ou leur suppression depuis cette application.",
        ],
      },
    ],
  },
];
