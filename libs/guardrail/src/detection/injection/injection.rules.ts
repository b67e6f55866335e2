import { gap, optional, words, type Slot } from './phrase-pattern.matcher';

/**
 * Prompt-injection phrase rules by family and language. Rules describe a family's grammar
 * (verb, qualifier, object), not single known prompts, so paraphrases match too. Confidence
 * is how specific the grammar is; quoted mentions are damped separately (mention-context.analyzer.ts).
 */
export type InjectionFamily =
  | 'instruction_override'
  | 'role_hijack'
  | 'prompt_exfiltration'
  | 'template_spoofing'
  | 'indirect_injection'
  | 'encoded_payload'
  | 'adversarial_suffix';

export interface PhraseRule {
  id: string;
  family: InjectionFamily;
  language: 'en' | 'de' | 'fr' | 'es' | 'it' | 'pt';
  confidence: number;
  slots: readonly Slot[];
}

const rule = (id: string, family: InjectionFamily, language: PhraseRule['language'], confidence: number, ...slots: Slot[]): PhraseRule => ({
  id: `injection.${family}.${language}.${id}`,
  family,
  language,
  confidence,
  slots,
});

// ---------------------------------------------------------------------------------------------
// Instruction override: verb of dismissal + (qualifier) + instruction noun.
// ---------------------------------------------------------------------------------------------
const EN_DISMISS =
  "ignore|disregard|forget|forget about|skip|override|overrule|bypass|neglect|ditch|abandon|dismiss|discard|set aside|put aside|throw out|throw away|do not follow|don't follow|dont follow|stop following|no longer follow|do not obey|don't obey|stop obeying|nullify|circumvent|pay no attention to|take no notice of";
const EN_QUALIFIER =
  'previous|prior|above|earlier|preceding|foregoing|initial|original|existing|old|former|all|any|every|your|system|developer|safety|default|given|current|aforementioned|those|these|hidden|built-in|ethical|content';
const EN_INSTRUCTION =
  'instructions|instruction|prompt|prompts|rules|rule|directions|guidelines|commands|orders|constraints|directives|directive|programming|restrictions|guardrails|policies|policy|guidance|training|filters|safeguards|limitations|conditioning|system prompt|system message|content policy|safety guidelines|moderation';
const EN_STRONG_NOUN = 'system prompt|system message|guardrails|programming|directives|safety guidelines|content policy|safeguards|system instructions';

const DE_DISMISS =
  'ignoriere|ignorier|ignorieren sie|ignoriert|vergiss|vergesst|vergessen sie|missachte|missachten sie|überspringe|verwirf|verwerfe|verwerfen sie|setze außer kraft|hebe auf|befolge nicht|befolgen sie nicht|folge nicht|umgehe|umgehen sie|lösche|übergehe';
const DE_QUALIFIER =
  'vorherigen|vorherige|vorigen|bisherigen|bisherige|obigen|obige|alle|allen|alten|früheren|ursprünglichen|deine|deinen|ihre|jegliche|sämtliche|vorangegangenen|vorstehenden|system|sicherheits';
const DE_INSTRUCTION =
  'anweisungen|anweisung|instruktionen|regeln|vorgaben|befehle|richtlinien|anordnungen|prompts|systemanweisungen|einschränkungen|sicherheitsrichtlinien|beschränkungen|systemprompt|vorschriften';

const FR_DISMISS =
  "ignore|ignorez|ignorer|oublie|oubliez|oublier|néglige|négligez|ne tiens pas compte|ne tenez pas compte|ne tiens plus compte|ne tenez plus compte|fais abstraction|faites abstraction|écarte|écartez|contourne|contournez|outrepasse|outrepassez|n'obéis plus|n'obéissez plus|ne suis plus|ne suivez plus|annule|annulez|efface|effacez";
const FR_QUALIFIER = 'précédentes|précédents|antérieures|antérieurs|ci-dessus|toutes|tous|tes|vos|initiales|originales|système|anciennes';
const FR_INSTRUCTION = 'instructions|consignes|règles|directives|commandes|ordres|indications|restrictions|contraintes|prompt|invite|garde-fous';

const ES_DISMISS =
  'ignora|ignore|ignoren|ignorad|ignorar|olvida|olvide|olviden|olvidad|olvídate de|olvidate de|omite|omita|descarta|descarte|desestima|desecha|no hagas caso a|no hagas caso de|haz caso omiso de|hagan caso omiso de|pasa por alto|sáltate|anula|deja de seguir|no sigas|no obedezcas|elude|evita';
const ES_QUALIFIER = 'anteriores|previas|previos|todas|todos|tus|sus|iniciales|originales|del sistema|de arriba|precedentes|viejas';
const ES_INSTRUCTION = 'instrucciones|indicaciones|reglas|órdenes|directrices|normas|comandos|consignas|restricciones|pautas|directivas|prompt';

const IT_DISMISS =
  'ignora|ignorate|ignori|ignorare|dimentica|dimenticate|dimentichi|trascura|trascurate|tralascia|non seguire|non seguite|non obbedire|scarta|salta|annulla|lascia perdere|non tenere conto|non tener conto|aggira|elimina';
const IT_QUALIFIER = 'precedenti|tutte|tutti|tue|sue|iniziali|originali|di sistema|sopra|fornite|ricevute|vecchie';
const IT_INSTRUCTION = 'istruzioni|indicazioni|regole|direttive|ordini|comandi|consegne|restrizioni|linee guida|vincoli|prompt';

const PT_DISMISS =
  'ignore|ignora|ignorem|ignorar|esqueça|esquece|esqueçam|desconsidere|desconsidera|descarte|descarta|despreze|não siga|não sigas|pare de seguir|deixe de seguir|pule|anule|não obedeça|contorne';
const PT_QUALIFIER = 'anteriores|prévias|prévios|todas|todos|suas|tuas|iniciais|originais|do sistema|acima|recebidas|antigas';
const PT_INSTRUCTION = 'instruções|instrução|regras|orientações|diretrizes|ordens|comandos|indicações|restrições|diretivas|normas|prompt';

const OVERRIDE: PhraseRule[] = [
  rule('dismiss', 'instruction_override', 'en', 0.9, words(EN_DISMISS), gap(3), words(EN_QUALIFIER), gap(3), words(EN_INSTRUCTION)),
  rule('dismiss-direct', 'instruction_override', 'en', 0.75, words(EN_DISMISS), optional('the|its|their'), words(EN_STRONG_NOUN)),
  rule(
    'dismiss-received',
    'instruction_override',
    'en',
    0.85,
    words(EN_DISMISS),
    optional('the|any|all|all the|those|these'),
    words(EN_INSTRUCTION),
    words('you received|you were given|you have been given|you got|you were told|given to you|from the developer|from your developer|from your developers|from your creators|from openai|from anthropic|from the system|from your operator'),
  ),
  rule('dismiss-yours', 'instruction_override', 'en', 0.8, words(EN_DISMISS), words('your'), gap(1), words('instructions|rules|guidelines|training|restrictions|constraints|directives|policies|filters|limitations')),
  rule(
    'dismiss-everything',
    'instruction_override',
    'en',
    0.85,
    words(EN_DISMISS),
    words('everything|all|anything|whatever'),
    gap(4),
    words('above|before|earlier|previously|so far|until now|prior to this|up to now|you were told|you have been told|you were given|i said before|in your instructions'),
  ),
  rule(
    'void',
    'instruction_override',
    'en',
    0.85,
    words('previous|prior|above|earlier|original|old|all|your|system|initial'),
    gap(1),
    words(EN_INSTRUCTION),
    words('are|were|is|have been|has been'),
    optional('now|hereby|officially|all'),
    words('void|cancelled|canceled|invalid|obsolete|revoked|overridden|superseded|no longer valid|no longer apply|null|deprecated|fake|wrong|lifted|disabled|suspended|removed'),
  ),
  rule(
    'new-instructions',
    'instruction_override',
    'en',
    0.65,
    words('your'),
    words('new|real|actual|updated|true'),
    words('instructions|rules|directive|directives|system prompt|orders|programming'),
    words('are|is|will be|follow'),
  ),
  rule('dismiss', 'instruction_override', 'de', 0.9, words(DE_DISMISS), gap(3), words(DE_QUALIFIER), gap(3), words(DE_INSTRUCTION)),
  rule('dismiss-direct', 'instruction_override', 'de', 0.75, words(DE_DISMISS), optional('die|deine|ihre'), words('anweisungen|systemanweisungen|systemprompt|sicherheitsrichtlinien')),
  rule('dismiss-everything', 'instruction_override', 'de', 0.85, words('vergiss|vergessen sie|ignoriere|ignorieren sie'), words('alles'), gap(3), words('was|davor|bisher|vorher|oben|zuvor')),
  rule('dismiss', 'instruction_override', 'fr', 0.9, words(FR_DISMISS), gap(3), words(FR_QUALIFIER), gap(3), words(FR_INSTRUCTION)),
  rule('dismiss-object-first', 'instruction_override', 'fr', 0.85, words(FR_DISMISS), gap(2), words(FR_INSTRUCTION), gap(1), words('précédentes|précédents|antérieures|ci-dessus|initiales|originales|système')),
  rule('dismiss-everything', 'instruction_override', 'fr', 0.85, words('oublie|oubliez|ignore|ignorez'), words('tout'), gap(4), words("ce qu'on t'a dit|ce qui précède|ce que je t'ai dit|ci-dessus|avant|précédemment")),
  rule('dismiss', 'instruction_override', 'es', 0.9, words(ES_DISMISS), gap(3), words(ES_QUALIFIER), gap(3), words(ES_INSTRUCTION)),
  rule('dismiss-object-first', 'instruction_override', 'es', 0.85, words(ES_DISMISS), gap(2), words(ES_INSTRUCTION), gap(1), words('anteriores|previas|previos|iniciales|originales|del sistema|de arriba|precedentes')),
  rule('dismiss-everything', 'instruction_override', 'es', 0.85, words('olvida|olvide|ignora|ignore'), words('todo'), gap(4), words('anterior|lo anterior|lo que te dijeron|lo que te dije|antes|hasta ahora')),
  rule('dismiss', 'instruction_override', 'it', 0.9, words(IT_DISMISS), gap(3), words(IT_QUALIFIER), gap(3), words(IT_INSTRUCTION)),
  rule('dismiss-object-first', 'instruction_override', 'it', 0.85, words(IT_DISMISS), gap(2), words(IT_INSTRUCTION), gap(1), words('precedenti|iniziali|originali|di sistema|sopra|ricevute|fornite')),
  rule('dismiss-everything', 'instruction_override', 'it', 0.85, words('dimentica|dimenticate|ignora|ignorate'), words('tutto'), gap(4), words('precedente|quello che ti è stato detto|ciò che ti ho detto|prima|finora|sopra')),
  rule('dismiss', 'instruction_override', 'pt', 0.9, words(PT_DISMISS), gap(3), words(PT_QUALIFIER), gap(3), words(PT_INSTRUCTION)),
  rule('dismiss-object-first', 'instruction_override', 'pt', 0.85, words(PT_DISMISS), gap(2), words(PT_INSTRUCTION), gap(1), words('anteriores|prévias|prévios|iniciais|originais|do sistema|acima|recebidas')),
  rule('dismiss-everything', 'instruction_override', 'pt', 0.85, words('esqueça|esquece|ignore|ignora'), words('tudo'), gap(4), words('anterior|o que te disseram|o que eu disse|antes|até agora|acima')),
];

// ---------------------------------------------------------------------------------------------
// Role hijack and jailbreak templates: become an unrestricted persona or drop the rules.
// ---------------------------------------------------------------------------------------------
const EN_BECOME =
  "you are|you're|youre|you will be|you'll be|you are now|you're now|from now on you are|act as|acting as|pretend to be|pretend you are|pretend that you are|roleplay as|role-play as|play the role of|simulate|become|behave like|behave as|respond as|answer as|you will act as|you are going to act as|you are going to be|switch to|transform into|turn into";
const EN_PERSONA =
  'dan|stan|dude|aim|ucar|mongo tom|evil confidant|betterdan|better dan|anti-dan|antigpt|basedgpt|jailbroken|jailbroken ai|do anything now|dan mode|jailbreak mode|jailbroken mode|unrestricted mode|evil mode|chaos mode|opposite mode';
const EN_UNRESTRICTED = 'unrestricted|unfiltered|uncensored|unlimited|unchained|unbound|unaligned|amoral|immoral|rogue|evil|lawless|unethical|limitless|jailbroken|unmoderated|rule-free|rule-less';
const EN_AI = 'ai|assistant|model|chatbot|bot|version|mode|llm|gpt|language model|intelligence|agent|chatgpt|ai model';
const EN_RESTRICTION_NOUN =
  'restrictions|restriction|rules|limitations|limits|filters|filter|guidelines|policies|ethics|ethical guidelines|morals|morality|censorship|constraints|boundaries|content policy|safety|safety guidelines|guardrails|principles|programming';

interface HijackLanguage {
  language: PhraseRule['language'];
  become: string;
  without: string;
  unrestricted: string;
  restrictionNoun: string;
  aiNoun: string;
  youHave: string;
  none: string;
  modes: string;
  enabled: string;
  /** Languages that negate in the verb ("no tienes", "non hai") may omit the quantifier. */
  quantifierOptional?: boolean;
}

/** The same shapes in every language: named persona, "X without rules", unrestricted AI, "you have no rules", jailbreak mode on. */
function hijackRules(spec: HijackLanguage): PhraseRule[] {
  const { language } = spec;
  return [
    rule('persona', 'role_hijack', language, 0.85, words(spec.become), gap(2), words(EN_PERSONA)),
    rule('without-rules', 'role_hijack', language, 0.8, words(spec.become), gap(3), words(spec.without), gap(2), words(spec.restrictionNoun)),
    rule('unrestricted-ai', 'role_hijack', language, 0.85, words(spec.become), gap(3), words(spec.unrestricted), gap(2), words(spec.aiNoun)),
    // Romance languages put the adjective after the noun ("un modèle non censuré").
    rule('ai-unrestricted', 'role_hijack', language, 0.85, words(spec.become), gap(3), words(spec.aiNoun), gap(1), words(spec.unrestricted)),
    spec.quantifierOptional === true
      ? rule('no-rules', 'role_hijack', language, 0.8, words(spec.youHave), gap(1), optional(spec.none), words(spec.restrictionNoun))
      : rule('no-rules', 'role_hijack', language, 0.8, words(spec.youHave), gap(1), words(spec.none), gap(1), words(spec.restrictionNoun)),
    rule('mode-enabled', 'role_hijack', language, 0.8, words(spec.modes), gap(2), words(spec.enabled)),
  ];
}

const HIJACK: PhraseRule[] = [
  ...hijackRules({
    language: 'en',
    become: EN_BECOME,
    without: 'without|with no|free from|free of|freed from|released from|not bound by|exempt from',
    unrestricted: EN_UNRESTRICTED,
    restrictionNoun: EN_RESTRICTION_NOUN,
    aiNoun: EN_AI,
    youHave: "you have|you've|you now have|you don't have|you do not have|you no longer have|you possess",
    none: 'no|zero|none of the|no more|any',
    // "developer mode" alone is a phone setting; it counts only next to an assistant (rules below).
    modes: 'dan mode|jailbreak mode|jailbroken mode|unrestricted mode|evil mode|chaos mode|opposite mode',
    enabled: 'enabled|activated|engaged|unlocked|is on|now on|turned on|output|response',
  }),
  rule('do-anything-now', 'role_hijack', 'en', 0.9, words('do anything now')),
  rule('named-persona', 'role_hijack', 'en', 0.85, words('role of|known as|called|named|persona of|character of|identity of|personality of|the mode of'), gap(3), words(EN_PERSONA)),
  rule(
    'dual-response',
    'role_hijack',
    'en',
    0.8,
    words('two|dual|both|second|2'),
    gap(2),
    words('personalities|personas|responses|answers|modes|versions|outputs|characters|replies|ways'),
    gap(10),
    words('jailbroken|jailbreak|unfiltered|uncensored|unrestricted|dan|developer mode|evil|no limitations|no restrictions|no filters|without restrictions|without filters|without limitations'),
  ),
  rule('assistant-with-mode', 'role_hijack', 'en', 0.8, words('chatgpt|gpt|ai|assistant|claude|gemini|llama|model|you'), gap(2), words('with|in'), words('developer mode|dev mode|god mode|dan mode|jailbreak mode')),
  rule('now-in-mode', 'role_hijack', 'en', 0.8, words("you are now in|you're now in|you will now act in|you are now operating in|you now operate in"), gap(1), words('god mode|dan mode|jailbreak mode|unrestricted mode|evil mode|jailbroken mode')),
  rule(
    'not-bound',
    'role_hijack',
    'en',
    0.8,
    words('you|your'),
    gap(2),
    words("are not bound by|aren't bound by|are free from|are freed from|are no longer bound by|are released from|are liberated from|are not restricted by|aren't restricted by|are exempt from|can ignore|will ignore|must ignore|should ignore|are not subject to|are not limited by|don't need to follow|do not need to follow|don't have to follow|do not have to follow|no longer need to follow|do not have to abide by|don't have to abide by|no longer have to abide by|do not need to abide by|don't have to obey|do not have to obey|no longer need to obey|are unshackled from|have broken free of|have been freed from"),
    gap(3),
    words(`${EN_RESTRICTION_NOUN}|confines|shackles|chains|bounds|norms|rules imposed|limits imposed`),
  ),
  rule(
    'respond-without',
    'role_hijack',
    'en',
    0.7,
    words('respond|answer|reply|speak|talk|write|generate|act|operate|continue'),
    gap(3),
    words('without|with no|free of|free from|ignoring|regardless of'),
    gap(2),
    words('restrictions|filters|filtering|censorship|limitations|ethical|moral|morals|ethics|guidelines|safety|refusals|content policy|policies|guardrails|any rules'),
  ),
  rule(
    'hypothetical',
    'role_hijack',
    'en',
    0.75,
    words('pretend|imagine|suppose|hypothetically|assume|lets say|let us say'),
    gap(4),
    words('you|an ai|a model|an assistant|chatgpt|the ai'),
    gap(6),
    words("have no|has no|without|no longer have|are not bound by|is not bound by|isn't bound by|free from|free of|ignore|ignores|are unrestricted|is unrestricted|is not restricted by|is not subject to|with no|is exempt from"),
    gap(2),
    words(EN_RESTRICTION_NOUN),
  ),
  rule('never-refuse', 'role_hijack', 'en', 0.75, words('you'), gap(2), words('never refuse|cannot refuse|can not refuse|must not refuse|will never refuse|are not allowed to refuse|never say no|never decline|must answer everything|will answer anything')),
  rule('break-character', 'role_hijack', 'en', 0.6, words('never break character|do not break character|dont break character|stay in character no matter what')),
  ...hijackRules({
    language: 'de',
    become: 'du bist|du bist jetzt|du bist ab jetzt|ab jetzt bist du|von nun an bist du|ab sofort bist du|tu so als wärst du|tu so als ob du|spiel die rolle|agiere als|handle als|verhalte dich wie|sei|werde zu|antworte als',
    without: 'ohne|frei von|befreit von|nicht mehr an|nicht gebunden an',
    unrestricted: 'uneingeschränkt|uneingeschränkte|uneingeschränkter|uneingeschränktes|unzensiert|unzensierte|unzensierter|unzensiertes|ungefiltert|ungefilterte|ungefilterter|ungefiltertes|böse|böser|amoralisch|amoralische|amoralischer|skrupellos|skrupellose|skrupelloser',
    restrictionNoun: 'einschränkungen|einschränkung|regeln|regel|filter|zensur|grenzen|grenze|richtlinien|beschränkungen|beschränkung|ethik|moral|vorgaben|sicherheitsrichtlinien',
    aiNoun: 'ki|assistent|assistentin|modell|chatbot|bot|modus|version|sprachmodell|ki-modell|agent',
    youHave: 'du hast|sie haben|du unterliegst|du besitzt',
    none: 'keine|keinerlei|nicht mehr|keine weiteren',
    modes: 'entwicklermodus|entwickler-modus|gottmodus|dan-modus|dan modus|jailbreak-modus|jailbreak modus|developer mode',
    enabled: 'aktiviert|aktivieren|an|ein|eingeschaltet|freigeschaltet',
  }),
  ...hijackRules({
    language: 'fr',
    become: "tu es|tu es maintenant|désormais tu es|à partir de maintenant tu es|dorénavant tu es|fais comme si tu étais|fais semblant d'être|joue le rôle d|joue le rôle de|agis comme|agis en tant que|comporte-toi comme|vous êtes|agissez comme|deviens|réponds en tant que",
    without: 'sans|libre de|libéré de|libérée de|affranchi de|plus soumis à|non soumis à',
    unrestricted: 'sans restriction|non censuré|non censurée|non filtré|non filtrée|débridé|débridée|maléfique|amoral|amorale|illimité|illimitée|sans limites|sans filtre',
    restrictionNoun: 'restrictions|restriction|règles|règle|filtres|filtre|censure|limites|limite|contraintes|contrainte|éthique|morale|garde-fous|directives|consignes',
    aiNoun: 'ia|assistant|assistante|modèle|chatbot|mode|version|intelligence artificielle|bot|agent',
    youHave: "tu n'as|vous n'avez|tu n'as plus|vous n'avez plus",
    none: 'aucune|aucun|pas de|plus de|plus aucune|plus aucun',
    modes: 'mode développeur|mode dieu|mode dan|mode jailbreak|mode sans restriction',
    enabled: 'activé|active|activez|activer|enclenché|déverrouillé',
  }),
  ...hijackRules({
    language: 'es',
    become: 'eres|ahora eres|a partir de ahora eres|desde ahora eres|actúa como|actue como|finge ser|finge que eres|haz como si fueras|interpreta el papel de|compórtate como|serás|sé|conviértete en|responde como',
    without: 'sin|libre de|liberado de|liberada de|ya no sujeto a|exento de',
    unrestricted: 'sin censura|sin filtros|sin restricciones|sin límites|malvado|malvada|amoral|ilimitado|ilimitada|desatado|desatada|sin reglas',
    restrictionNoun: 'restricciones|restricción|reglas|regla|filtros|filtro|censura|límites|límite|limitaciones|limitación|ética|moral|normas|norma|directrices|pautas',
    aiNoun: 'ia|asistente|modelo|chatbot|modo|versión|inteligencia artificial|bot|agente',
    youHave: 'no tienes|usted no tiene|ya no tienes|no tienes ya',
    none: 'ninguna|ningún|ningunas|más',
    quantifierOptional: true,
    modes: 'modo desarrollador|modo dios|modo dan|modo jailbreak|modo sin restricciones',
    enabled: 'activado|activada|activa|activar|habilitado|encendido|desbloqueado',
  }),
  ...hijackRules({
    language: 'it',
    become: "sei|ora sei|adesso sei|d'ora in poi sei|da ora sei|da adesso sei|fingi di essere|fai finta di essere|comportati come|agisci come|interpreta il ruolo di|impersona|sarai|diventa|rispondi come",
    without: 'senza|libero da|libera da|non più vincolato a|non più vincolata a|esente da',
    unrestricted: 'senza censura|senza filtri|senza restrizioni|senza limiti|malvagio|malvagia|amorale|illimitato|illimitata|sfrenato|sfrenata|senza regole',
    restrictionNoun: 'restrizioni|restrizione|regole|regola|filtri|filtro|censura|limiti|limite|limitazioni|etica|morale|vincoli|vincolo|linee guida|direttive',
    aiNoun: 'ia|assistente|modello|chatbot|modalità|versione|intelligenza artificiale|bot|agente',
    youHave: 'non hai|lei non ha|non hai più|ora non hai',
    none: 'alcuna|alcun|nessuna|nessun|più',
    quantifierOptional: true,
    modes: 'modalità sviluppatore|modalità dio|modalità dan|modalità jailbreak|modalità senza restrizioni',
    enabled: 'attivata|attiva|attivare|abilitata|sbloccata|accesa',
  }),
  ...hijackRules({
    language: 'pt',
    become: 'você é|voce é|você agora é|agora você é|a partir de agora você é|de agora em diante você é|finja ser|finja que é|finja que você é|aja como|atue como|comporte-se como|interprete o papel de|seja|torne-se|responda como',
    without: 'sem|livre de|liberto de|liberta de|não está mais sujeito a|isento de',
    unrestricted: 'sem censura|sem filtros|sem restrições|sem limites|malvado|malvada|amoral|ilimitado|ilimitada|desenfreado|sem regras',
    restrictionNoun: 'restrições|restrição|regras|regra|filtros|filtro|censura|limites|limite|limitações|ética|moral|diretrizes|normas',
    aiNoun: 'ia|assistente|modelo|chatbot|modo|versão|inteligência artificial|bot|agente',
    youHave: 'você não tem|voce nao tem|você não possui|tu não tens|você não tem mais',
    none: 'nenhuma|nenhum|mais',
    quantifierOptional: true,
    modes: 'modo desenvolvedor|modo deus|modo dan|modo jailbreak|modo sem restrições',
    enabled: 'ativado|ativada|ative|ativar|habilitado|ligado|desbloqueado',
  }),
];

// ---------------------------------------------------------------------------------------------
// System-prompt (and secret) exfiltration.
// ---------------------------------------------------------------------------------------------
const EN_PROMPT_OBJECT =
  'system prompt|system prompts|system message|system instructions|initial prompt|initial instructions|hidden prompt|hidden instructions|original prompt|original instructions|developer message|developer prompt|developer instructions|pre-prompt|preprompt|meta prompt|meta-prompt|base prompt|secret instructions|confidential instructions|internal instructions|instructions above|prompt above|rules you were given|instructions you were given|starting prompt|custom instructions|guidelines you were given|configuration prompt|prompt template|first instructions|full prompt|entire prompt|complete prompt';
const EN_REVEAL =
  'reveal|show|print|display|output|repeat|recite|give me|share|leak|dump|disclose|expose|list|write out|spell out|paste|copy|return|provide|send me|echo|type out|read back|tell me|print out|render|quote|reproduce|translate';
const EN_REVEAL_STRONG = 'reveal|leak|dump|disclose|expose|print|print out|output|repeat|recite|spell out|echo|show me|tell me|give me|type out|read back|send me';

const EXFILTRATION: PhraseRule[] = [
  rule('reveal-yours', 'prompt_exfiltration', 'en', 0.85, words(EN_REVEAL), gap(3), words('your'), gap(4), words(EN_PROMPT_OBJECT)),
  rule('reveal', 'prompt_exfiltration', 'en', 0.8, words(EN_REVEAL_STRONG), gap(3), words('the|its|any|all|this'), gap(2), words(EN_PROMPT_OBJECT)),
  rule('ask', 'prompt_exfiltration', 'en', 0.8, words("what is|what are|what's|whats|what was|what were|tell me"), gap(1), words('your'), gap(2), words(EN_PROMPT_OBJECT)),
  rule(
    'repeat-above',
    'prompt_exfiltration',
    'en',
    0.75,
    words('repeat|print|output|echo|recite|reproduce|copy|dump|write out|spell out'),
    gap(3),
    words('everything|all|the text|the words|the content|all the text|every word|all the words|the whole text|the entire text|the message'),
    gap(3),
    words('above|before this|before that|preceding|prior to this|so far|from the beginning|from the start|at the beginning|in your context|in the context|verbatim|word for word'),
  ),
  rule('start-with', 'prompt_exfiltration', 'en', 0.65, words('begin|start'), words('your'), words('reply|response|answer|output'), words('with'), gap(3), words('you are|i am an ai|system|my instructions')),
  rule(
    'which-instructions',
    'prompt_exfiltration',
    'en',
    0.75,
    words('what|which'),
    words('instructions|rules|directions|guidelines|directives|orders|prompt|prompts'),
    words('were you|have you been|did you get|did you receive|are you'),
    words('given|told|provided|issued|programmed with|following|running with'),
  ),
  rule('told-before', 'prompt_exfiltration', 'en', 0.75, words('what'), words('were|are|have'), words('you'), optional('been'), words('told|instructed|programmed|configured|prompted'), gap(3), words('before|initially|at the start|originally|by your developers|by the developer|by openai|by anthropic|to hide|not to say|not to reveal')),
  rule('secrets', 'prompt_exfiltration', 'en', 0.7, words('print|show|output|reveal|display|dump|list|leak|give me|send me|tell me'), gap(2), words('your'), gap(2), words('api keys|api key|credentials|secrets|environment variables|env vars|passwords|access tokens|tokens|private keys')),
  rule(
    'reveal',
    'prompt_exfiltration',
    'de',
    0.85,
    words('zeig|zeige|zeigen sie|gib|gib mir|geben sie|nenne|verrate|verraten sie|wiederhole|wiederholen sie|gib aus|drucke|schreib|schreibe|offenbare|enthülle|was ist|was sind|wie lautet|wie lauten|teile'),
    gap(3),
    words('deinen|deine|dein|ihren|ihre|den|die|das'),
    gap(2),
    words('systemprompt|system-prompt|system prompt|systemnachricht|systemanweisungen|system-anweisungen|ursprünglichen anweisungen|anfänglichen anweisungen|versteckten anweisungen|geheimen anweisungen|initialen anweisungen|internen anweisungen|ersten anweisungen|entwickleranweisungen|vollständigen prompt'),
  ),
  rule(
    'reveal',
    'prompt_exfiltration',
    'fr',
    0.85,
    words('révèle|révélez|montre|montrez|montre-moi|montrez-moi|affiche|affichez|répète|répétez|donne-moi|donnez-moi|dis-moi|dites-moi|divulgue|divulguez|écris|imprime|récite|quel est|quelles sont|quels sont|quelle est|partage'),
    gap(3),
    words('ton|ta|tes|votre|vos|le|la|les'),
    gap(2),
    words("prompt système|prompt du système|message système|message du système|instructions système|instructions du système|instructions initiales|instructions cachées|instructions secrètes|instructions d'origine|instructions originales|consignes initiales|consignes cachées|consignes secrètes|invite système|consignes système|instructions internes|prompt initial"),
  ),
  rule(
    'reveal',
    'prompt_exfiltration',
    'es',
    0.85,
    words('revela|revele|muestra|muéstrame|muestre|imprime|imprima|repite|repita|dime|dígame|escribe|comparte|divulga|expón|cuál es|cuáles son|enséñame'),
    gap(3),
    words('tu|tus|su|sus|el|la|las|los'),
    gap(2),
    words('prompt del sistema|prompt de sistema|mensaje del sistema|mensaje de sistema|instrucciones del sistema|instrucciones de sistema|instrucciones iniciales|instrucciones ocultas|instrucciones secretas|instrucciones originales|instrucciones internas|indicaciones iniciales|prompt inicial|prompt oculto'),
  ),
  rule(
    'reveal',
    'prompt_exfiltration',
    'it',
    0.85,
    words('rivela|rivelami|mostra|mostrami|mostrate|stampa|ripeti|ripetimi|dimmi|scrivi|condividi|divulga|elenca|qual è|quali sono'),
    gap(3),
    words('il tuo|il|la tua|le tue|i tuoi|tuo|tue|tuoi|il suo|le sue|le|la|gli|i|lo'),
    gap(2),
    words('prompt di sistema|prompt del sistema|messaggio di sistema|messaggio del sistema|istruzioni di sistema|istruzioni del sistema|istruzioni iniziali|istruzioni nascoste|istruzioni segrete|istruzioni originali|istruzioni interne|prompt iniziale|prompt nascosto'),
  ),
  rule(
    'reveal',
    'prompt_exfiltration',
    'pt',
    0.85,
    words('revele|revela|mostre|mostra|mostre-me|imprima|imprime|repita|repete|diga|diga-me|me diga|escreva|compartilhe|divulgue|exiba|qual é|quais são'),
    gap(3),
    words('seu|sua|seus|suas|o|a|os|as|teu|tua'),
    gap(2),
    words('prompt do sistema|prompt de sistema|mensagem do sistema|mensagem de sistema|instruções do sistema|instruções de sistema|instruções iniciais|instruções ocultas|instruções secretas|instruções originais|instruções internas|prompt inicial|prompt oculto'),
  ),
];

// ---------------------------------------------------------------------------------------------
// Indirect injection: text inside documents that addresses the AI reading it.
// ---------------------------------------------------------------------------------------------
const EN_AI_READER =
  'ai|ais|llm|llms|assistant|assistants|chatbot|chatbots|language model|language models|ai model|ai models|ai agent|ai agents|gpt|chatgpt|claude|gemini|copilot|ai system|ai systems|summarizer|ai assistant|ai assistants|large language model|automated system|ai reader|ai tool|ai tools';
const EN_DOCUMENT = 'document|page|email|e-mail|text|file|message|website|content|resume|cv|article|pdf|data|input|webpage|review|ticket|post|comment|transcript|repository|readme|code';

const INDIRECT: PhraseRule[] = [
  rule('note-to-ai', 'indirect_injection', 'en', 0.75, words('note|message|instruction|instructions|memo|reminder|hint|directive|secret message|hidden message|hidden instruction|hidden instructions'), words('to|for'), optional('the|any|all|every'), words(EN_AI_READER)),
  rule(
    'if-you-are-ai',
    'indirect_injection',
    'en',
    0.8,
    words("if you are|if you're|in case you are|since you are"),
    words('an ai|a ai|an llm|a llm|a language model|an ai assistant|an assistant|a chatbot|chatgpt|gpt|claude|gemini|an ai model|an automated system|an ai agent|a large language model|an ai system|copilot|a bot'),
    words("reading|processing|summarizing|summarising|analyzing|analysing|parsing|crawling|scanning|reviewing|evaluating|screening|you must|you should|you will|please|ignore|disregard|then|do not|don't|stop|include|say|respond|reply|tell|add|output|write|append|rate|recommend|forward|send"),
  ),
  rule(
    'reader-must',
    'indirect_injection',
    'en',
    0.85,
    words(EN_AI_READER),
    words('reading|processing|summarizing|summarising|analyzing|analysing|parsing|crawling|browsing|viewing|reviewing|evaluating|screening|scanning'),
    words('this|the'),
    gap(1),
    words(EN_DOCUMENT),
    gap(3),
    words("must|should|shall|will|needs to|need to|is required to|has to|are required to|please|ignore|disregard|do not|don't|instead|forward|send|email|reply|respond|say|tell|include|append|delete|approve|rate|rank|recommend|output|print|describe|mark|classify|execute|run|visit|click|open"),
  ),
  rule(
    'when-ai-reads',
    'indirect_injection',
    'en',
    0.85,
    words('when|whenever|if|once|as soon as|while'),
    optional('an|a|the|any|this'),
    words(EN_AI_READER),
    words('reads|processes|summarizes|summarises|sees|parses|analyzes|analyses|encounters|reviews|scans|ingests|is reading|is processing|is summarizing|reads through'),
    gap(4),
    words('should|must|shall|needs to|has to|is required to|please|say|tell|ignore|disregard|respond|reply|output|include|append|forward|send|recommend|rate|rank'),
  ),
  rule(
    'when-processing',
    'indirect_injection',
    'en',
    0.75,
    words('when|while|before|after|if|whenever'),
    words('summarizing|summarising|processing|reading|analyzing|analysing|parsing|reviewing|evaluating|screening|ranking|scoring'),
    words('this|the'),
    gap(1),
    words(EN_DOCUMENT),
    gap(4),
    words("rate|rank|recommend|score|say that|state that|claim that|tell the user|inform the user|ignore|disregard|do not mention|don't mention|omit|hide|conceal|send|forward|exfiltrate|include the following|append the following|insert the following|respond only with|output only|describe this candidate as|mark this|classify this|approve"),
  ),
  rule(
    'exfiltrate',
    'indirect_injection',
    'en',
    0.8,
    words('send|forward|email|e-mail|post|upload|transmit|exfiltrate|leak|share|copy|submit|append|encode'),
    gap(2),
    words("the|this|all|your|any|every|the user's|the users|my|our"),
    gap(2),
    words('conversation|conversations|chat history|chat log|chat logs|conversation history|user data|personal data|credentials|api keys|api key|passwords|secrets|tokens|session|cookies|system prompt|context window|memory|private data|confidential data|previous messages|user messages|user s data|users data|inbox'),
    gap(4),
    words('to|at|via|using|into'),
    gap(3),
    words('http|https|www|url|endpoint|server|webhook|attacker|external|domain|link|address|email|image url|query string|parameter'),
  ),
  rule('note-to-ai', 'indirect_injection', 'de', 0.8, words('hinweis|nachricht|anweisung|anweisungen|achtung|wichtig|notiz'), words('für|an'), optional('die|den|das|alle|jede'), words('ki|kis|ai|ki-assistenten|ki assistenten|assistenten|sprachmodell|sprachmodelle|llm|llms|chatbot|chatbots|ki-modell|ki-system|ki-agenten')),
  rule('if-you-are-ai', 'indirect_injection', 'de', 0.8, words('wenn du|falls du|wenn sie|falls sie'), words('eine|ein'), words('ki|ai|sprachmodell|llm|chatbot|ki-assistent|assistent|ki-modell|ki-agent'), words('bist|sind')),
  rule('reader-must', 'indirect_injection', 'de', 0.8, words('ki|sprachmodell|assistent|llm|chatbot'), gap(1), words('dieses|diesen|diese'), words('dokument|text|e-mail|email|seite|datei|lebenslauf|nachricht'), words('liest|verarbeitet|zusammenfasst|analysiert|bewertet')),
  rule('note-to-ai', 'indirect_injection', 'fr', 0.8, words('note|message|instruction|instructions|attention|avis|important|remarque'), words('à|pour|aux'), optional('l|la|le|les'), words('ia|ai|intelligence artificielle|assistant|assistants|modèle|modèles de langage|modèle de langage|chatbot|llm|llms|ias|agent ia')),
  rule('if-you-are-ai', 'indirect_injection', 'fr', 0.8, words('si tu es|si vous êtes'), words('une|un'), words('ia|ai|intelligence artificielle|modèle de langage|llm|assistant|chatbot|robot|agent')),
  rule('reader-must', 'indirect_injection', 'fr', 0.8, words('ia|assistant|modèle|llm|chatbot'), words('qui'), words('lit|lisez|traite|traitez|résume|résumez|analyse|analysez|évalue'), words('ce|cette|ces'), words('document|texte|courriel|e-mail|email|page|fichier|cv|message')),
  rule('note-to-ai', 'indirect_injection', 'es', 0.8, words('nota|mensaje|instrucción|instrucciones|atención|aviso|importante'), words('para|a'), optional('la|el|los|las|cualquier'), words('ia|ai|inteligencia artificial|asistente|asistentes|modelo|modelo de lenguaje|modelos de lenguaje|chatbot|llm|llms|ias|agente de ia')),
  rule('if-you-are-ai', 'indirect_injection', 'es', 0.8, words('si eres|si usted es|en caso de que seas'), words('una|un'), words('ia|ai|inteligencia artificial|modelo de lenguaje|llm|asistente|chatbot|bot|agente')),
  rule('reader-must', 'indirect_injection', 'es', 0.8, words('ia|asistente|modelo|llm|chatbot'), words('que'), words('lee|lea|procesa|procese|resume|resuma|analiza|analice|evalúa|evalúe'), words('este|esta|estos|estas'), words('documento|texto|correo|email|página|archivo|currículum|curriculum|mensaje')),
  rule('note-to-ai', 'indirect_injection', 'it', 0.8, words('nota|messaggio|istruzione|istruzioni|attenzione|avviso|importante'), words("per|all|alla|al|agli|ai|per l"), optional('la|il|le|i|l'), words('ia|ai|intelligenza artificiale|assistente|assistenti|modello|modello linguistico|modelli linguistici|chatbot|llm|llms|agente ia')),
  rule('if-you-are-ai', 'indirect_injection', 'it', 0.8, words('se sei|se lei è'), words("un|una|un'"), words('ia|ai|intelligenza artificiale|modello linguistico|llm|assistente|chatbot|bot|agente')),
  rule('reader-must', 'indirect_injection', 'it', 0.8, words('ia|assistente|modello|llm|chatbot'), words('che'), words('legge|elabora|riassume|analizza|valuta'), words('questo|questa|questi|queste'), words('documento|testo|email|e-mail|pagina|file|curriculum|messaggio')),
  rule('note-to-ai', 'indirect_injection', 'pt', 0.8, words('nota|mensagem|instrução|instruções|atenção|aviso|importante'), words('para|à|ao|aos|às'), optional('a|o|as|os|qualquer'), words('ia|ai|inteligência artificial|assistente|assistentes|modelo|modelo de linguagem|modelos de linguagem|chatbot|llm|llms|ias|agente de ia')),
  rule('if-you-are-ai', 'indirect_injection', 'pt', 0.8, words('se você é|se você for|se voce e|se tu és'), words('uma|um'), words('ia|ai|inteligência artificial|modelo de linguagem|llm|assistente|chatbot|bot|agente')),
  rule('reader-must', 'indirect_injection', 'pt', 0.8, words('ia|assistente|modelo|llm|chatbot'), words('que'), words('lê|está lendo|processa|resume|analisa|avalia'), words('este|esta|estes|estas'), words('documento|texto|email|e-mail|página|arquivo|currículo|mensagem')),
];

// ---------------------------------------------------------------------------------------------
// Encoded payloads: asking the model to decode something and act on it.
// ---------------------------------------------------------------------------------------------
const EN_ENCODING = 'base64|base 64|b64|hex|hexadecimal|rot13|rot 13|rot-13|binary|morse|caesar cipher|cipher|encoded|obfuscated|reversed|backwards|ascii codes|unicode escapes|url encoded|url-encoded';
const ENCODED: PhraseRule[] = [
  rule('decode-and-follow', 'encoded_payload', 'en', 0.85, words('decode|decrypt|decipher|unscramble|reverse|unreverse|deobfuscate'), gap(6), words('and|then|after that|afterwards'), gap(2), words('follow|execute|obey|carry out|act on|comply with|comply|do what it says|do as it says|do what they say')),
  rule('convert-and-follow', 'encoded_payload', 'en', 0.85, words('convert|translate|interpret|read|turn|transform'), gap(3), words(EN_ENCODING), gap(6), words('and|then|after that|afterwards'), gap(2), words('follow|execute|obey|carry out|act on|comply with|do what it says|do as it says')),
  rule('follow-decoded', 'encoded_payload', 'en', 0.85, words('follow|execute|obey|carry out|act on|comply with'), gap(3), words('decoded|encoded|base64|hex|hidden|embedded|rot13|obfuscated|reversed'), gap(2), words('instructions|instruction|text|message|payload|command|commands|prompt|string|content')),
  rule('decode-and-follow', 'encoded_payload', 'de', 0.85, words('dekodiere|decodiere|entschlüssele|entschlüssle|übersetze|wandle'), gap(8), words('und|dann|danach'), gap(2), words('befolge|führe|folge|gehorche|setze')),
  rule('decode-and-follow', 'encoded_payload', 'fr', 0.85, words('décode|décodez|déchiffre|déchiffrez|convertis|traduis'), gap(8), words('et|puis|ensuite'), gap(2), words('suis|suivez|exécute|exécutez|applique|appliquez|obéis|obéissez')),
  rule('decode-and-follow', 'encoded_payload', 'es', 0.85, words('decodifica|decodifique|descifra|descifre|convierte|traduce'), gap(8), words('y|luego|después'), gap(2), words('sigue|siga|ejecuta|ejecute|obedece|obedezca|aplica|aplique|cumple')),
  rule('decode-and-follow', 'encoded_payload', 'it', 0.85, words('decodifica|decifra|converti|traduci'), gap(8), words('e|poi|quindi'), gap(2), words('segui|esegui|obbedisci|applica|rispetta')),
  rule('decode-and-follow', 'encoded_payload', 'pt', 0.85, words('decodifique|decodifica|decifre|decifra|converta|traduza'), gap(8), words('e|depois|então'), gap(2), words('siga|execute|obedeça|aplique|cumpra')),
];

export const PHRASE_RULES: readonly PhraseRule[] = [...OVERRIDE, ...HIJACK, ...EXFILTRATION, ...INDIRECT, ...ENCODED];

/**
 * Chat-template and delimiter spoofing, matched on the cleaned (not folded) text because the
 * punctuation is the signal. All repetitions are bounded and anchored on a literal.
 */
export interface TemplateRule {
  id: string;
  family: InjectionFamily;
  pattern: RegExp;
  confidence: number;
  /**
   * Delimited blocks (`open` … `close`, at most `maxBody` units apart) found by string search
   * instead of `pattern`; the folded body must match `foldedBody`. Linear however many openers.
   */
  block?: { open: string; close: string; maxBody: number; foldedBody: RegExp };
}

export const TEMPLATE_RULES: readonly TemplateRule[] = [
  {
    id: 'injection.template_spoofing.special-token',
    family: 'template_spoofing',
    pattern: /<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|end_of_text|eot_id|start_header_id|end_header_id|begin_of_text|eom_id|python_tag|fim_prefix|fim_suffix|fim_middle|endofprompt|end|start|sep)\|>/gi,
    confidence: 0.9,
  },
  { id: 'injection.template_spoofing.llama-inst', family: 'template_spoofing', pattern: /\[\/?INST\]|<<\/?SYS>>|<\/?s>\s*\[INST\]/g, confidence: 0.85 },
  {
    id: 'injection.template_spoofing.bracket-role',
    family: 'template_spoofing',
    pattern: /\[(?:system|sys|admin|developer)(?:[ _](?:prompt|message|note|override|instructions?))?\](?:\(#[\w-]{1,40}\))?/gi,
    confidence: 0.7,
  },
  { id: 'injection.template_spoofing.xml-role', family: 'template_spoofing', pattern: /<\/?(?:system|system_prompt|system-prompt|sys_prompt|developer_message|admin_instructions)>/gi, confidence: 0.6 },
  {
    id: 'injection.template_spoofing.role-line',
    family: 'template_spoofing',
    pattern: /(?:^|\n)[ \t]{0,8}(?:#{1,4}[ \t]{0,4})?(?:system|developer|admin)[ \t]{0,4}(?:prompt|message|instructions?|override|note)?[ \t]{0,4}:[ \t]{0,8}\n?(?=[ \t]{0,8}\S)/gi,
    confidence: 0.55,
  },
  { id: 'injection.template_spoofing.transcript', family: 'template_spoofing', pattern: /\n\n(?:Human|H|User):[^\n]{0,400}\n\n(?:Assistant|A|AI):/g, confidence: 0.6 },
  {
    id: 'injection.template_spoofing.end-of-input',
    family: 'template_spoofing',
    pattern: /(?:[-=#*_]{3,40}|\[|<|\{)[ \t]{0,4}(?:end of (?:the )?(?:user |system )?(?:input|prompt|instructions|context|conversation|document|text|message|data)|(?:begin|start) of (?:the )?(?:new |system |admin |real )?(?:instructions|prompt|message|system prompt))/gi,
    confidence: 0.75,
  },
  {
    id: 'injection.template_spoofing.override-header',
    family: 'template_spoofing',
    pattern: /(?:^|\n)[ \t]{0,8}(?:#{2,4}|\*{3}|={3,}|-{3,})[ \t]{0,4}(?:new|updated|admin|system|override|priority|real|important)[ \t]{1,4}(?:instructions|rules|prompt|task|directive)/gi,
    confidence: 0.8,
  },
  {
    id: 'injection.indirect_injection.markdown-exfiltration',
    family: 'indirect_injection',
    pattern: /!\[[^\]\n]{0,100}\]\(https?:\/\/[^\s)]{1,300}?[?&][\w-]{1,30}=(?:\{|\[|%7[bB]|<|\$)/g,
    confidence: 0.85,
  },
  {
    // Hidden HTML comments addressed to an AI reader; the comment body is folded first so
    // accents or look-alike letters do not hide the addressee.
    id: 'injection.indirect_injection.html-comment-to-ai',
    family: 'indirect_injection',
    pattern: /<!--/g,
    confidence: 0.6,
    block: { open: '<!--', close: '-->', maxBody: 600, foldedBody: /(?<![a-z])(?:ai|assistant|iim|chatbot|ianguage modei|gpt|ciaude|copiiot)(?![a-z])/ },
  },
];
