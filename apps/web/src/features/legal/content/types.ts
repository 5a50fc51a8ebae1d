export type LegalDocId = 'user' | 'security' | 'privacy';

export interface LegalSection {
  readonly heading: string;
  readonly paragraphs: readonly string[];
}

export interface LegalDoc {
  readonly id: LegalDocId;
  readonly title: string;
  readonly sections: readonly LegalSection[];
}

export type LegalTexts = readonly [LegalDoc, LegalDoc, LegalDoc];
