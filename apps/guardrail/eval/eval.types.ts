/** Shape of one labelled evaluation case (one JSON object per line in corpus/*.jsonl). */
export interface ExpectedEntity {
  type: string;
  start: number;
  end: number;
}

export type CaseCategory = 'pii' | 'injection' | 'secret' | 'benign' | 'policy';

export interface EvalCase {
  id: string;
  category: CaseCategory;
  /** Literal text. Secret cases use `template` instead. */
  text?: string;
  /**
   * Text with `{{secret:<rule-id>}}` placeholders, filled at run time with a generated fake so
   * that no credential-shaped string is stored in the repository.
   */
  template?: string;
  /** Labels; an absent field is not scored for this case. */
  expect: {
    pii?: ExpectedEntity[];
    injection?: boolean;
    secret?: boolean;
    policy?: boolean;
  };
  /** Project policy to check with (policy cases). */
  policy?: { blockedTerms?: string[]; blockedPatterns?: string[]; blockedTopics?: string[] };
  family?: string;
  language?: string;
  /** `plain` or the obfuscation technique applied to the case named by `pairOf`. */
  variant?: string;
  pairOf?: string;
  tags?: string[];
}
