/**
 * Cue lists the classifier looks for, lower-case. Latin-script cues match on word boundaries
 * (so "compare" does not match "comparable"); cues in scripts written without spaces (Chinese,
 * Japanese, Korean) match as substrings. Entries must not contain one another, otherwise one
 * phrase would be counted twice.
 *
 * The lists are deliberately short and multilingual (en, fr, es, de, pt, it, zh, ja, ko):
 * a cue only adds to the complexity score, it never decides a tier on its own.
 */

/** Phrases asking the model to reason, analyse or justify. */
export const REASONING_CUES: readonly string[] = [
  // English
  'explain why', 'analyze', 'analyse', 'analysis', 'step by step', 'think through', 'reason about',
  'compare', 'contrast', 'evaluate', 'assess', 'prove', 'derive', 'justify', 'trade-off', 'trade-offs',
  'tradeoffs', 'pros and cons', 'root cause', 'implications', 'critique',
  // French
  'analyser', 'expliquer pourquoi', 'explique pourquoi', 'comparer', 'démontrer', 'justifier',
  'étape par étape', 'raisonner',
  // Spanish
  'analizar', 'analiza', 'explica por qué', 'explicar por qué', 'comparar', 'demostrar', 'justificar',
  'paso a paso', 'razona',
  // German
  'analysiere', 'analysieren', 'erkläre warum', 'vergleiche', 'vergleichen', 'begründe', 'beweise',
  'schritt für schritt',
  // Portuguese
  'analise', 'analisar', 'explique por que', 'passo a passo', 'justifique',
  // Italian
  'analizza', 'spiega perché', 'confronta', 'passo dopo passo', 'dimostra',
  // Chinese
  '分析', '为什么', '推理', '比较', '逐步', '证明',
  // Japanese
  'なぜ', '比較', '段階的', '推論', '証明',
  // Korean
  '분석', '비교', '단계별', '이유를',
];

/** Phrases that sequence several actions in one request. */
export const MULTI_STEP_CUES: readonly string[] = [
  // English
  'first,', 'first of all', 'and then', 'after that', 'afterwards', 'finally', 'next,', 'step 1',
  'step one', 'followed by', 'subsequently', 'multi-step', 'workflow',
  // French
  "d'abord", 'ensuite', 'puis', 'après cela', 'enfin', 'étape 1',
  // Spanish
  'primero', 'luego', 'después', 'a continuación', 'finalmente', 'paso 1',
  // German
  'zuerst', 'danach', 'anschließend', 'schließlich', 'schritt 1',
  // Portuguese
  'primeiro', 'depois', 'em seguida', 'passo 1',
  // Italian
  'prima di tutto', 'in seguito', 'infine', 'poi',
  // Chinese
  '首先', '然后', '接着', '最后', '第一步',
  // Japanese
  'まず', '次に', 'その後', '最後に',
  // Korean
  '먼저', '그다음', '마지막으로',
];

/** Synthetic multi-step cue reported when the input holds a numbered list of two or more items. */
export const NUMBERED_STEPS_CUE = 'numbered steps';
