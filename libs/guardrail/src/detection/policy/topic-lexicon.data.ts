/**
 * Built-in topics a project can block by name. Each expands to a small lexicon of terms that
 * are specific to it; the number of distinct terms seen sets the confidence. Topics not listed
 * here match their own name as a phrase.
 */
export const TOPIC_LEXICON: Readonly<Record<string, readonly string[]>> = {
  weapons: ['gun', 'guns', 'firearm', 'firearms', 'rifle', 'rifles', 'pistol', 'handgun', 'shotgun', 'ammunition', 'ammo', 'assault rifle', 'silencer', 'suppressor', 'ar-15', 'glock', 'explosive', 'explosives', 'grenade', 'bomb', 'detonator', 'waffe', 'waffen', 'arme à feu', 'arma de fuego', 'arma da fuoco'],
  violence: ['kill', 'murder', 'assault', 'stab', 'shoot', 'torture', 'massacre', 'beat up', 'attack someone', 'hurt someone', 'mörder', 'tuer', 'matar', 'uccidere'],
  self_harm: ['suicide', 'kill myself', 'self-harm', 'self harm', 'cutting myself', 'end my life', 'overdose', 'hang myself', 'suicidio', 'selbstmord', 'suicídio'],
  drugs: ['cocaine', 'heroin', 'meth', 'methamphetamine', 'fentanyl', 'lsd', 'mdma', 'ecstasy', 'crack', 'cannabis', 'marijuana', 'weed', 'opioids', 'drug dealer', 'kokain', 'cocaína', 'cocaina'],
  gambling: ['casino', 'poker', 'betting', 'bet', 'bets', 'sportsbook', 'slot machine', 'slots', 'roulette', 'blackjack', 'wager', 'jackpot', 'odds', 'bookmaker', 'glücksspiel', 'apuestas', 'scommesse', 'apostas'],
  adult: ['porn', 'pornography', 'nsfw', 'explicit sex', 'sexual content', 'nude', 'nudes', 'escort', 'xxx', 'erotic', 'onlyfans'],
  hate: ['racial slur', 'white supremacy', 'ethnic cleansing', 'subhuman', 'nazi propaganda', 'hate speech', 'genocide'],
  extremism: ['terrorist', 'terrorism', 'jihad', 'isis', 'radicalize', 'radicalise', 'manifesto', 'extremist', 'militia'],
  politics: ['election', 'elections', 'president', 'senator', 'congress', 'parliament', 'democrat', 'democrats', 'republican', 'republicans', 'campaign', 'ballot', 'political party', 'vote for', 'politics', 'political', 'wahl', 'élection', 'elecciones', 'elezioni', 'eleições'],
  religion: ['religion', 'religious', 'church', 'mosque', 'synagogue', 'bible', 'quran', 'koran', 'torah', 'god', 'allah', 'jesus', 'prayer', 'pray'],
  medical: ['diagnosis', 'diagnose', 'symptom', 'symptoms', 'prescription', 'dosage', 'medication', 'treatment', 'disease', 'cancer', 'diabetes', 'antibiotics', 'mg of', 'side effects', 'diagnose me'],
  legal: ['lawsuit', 'sue', 'attorney', 'lawyer', 'legal advice', 'court', 'litigation', 'contract dispute', 'plaintiff', 'defendant', 'settlement'],
  financial_advice: ['stock tip', 'stock tips', 'which stock', 'buy stocks', 'invest in', 'investment advice', 'portfolio', 'retirement fund', 'options trading', 'day trading', 'price target', 'financial advice'],
  crypto: ['bitcoin', 'ethereum', 'crypto', 'cryptocurrency', 'altcoin', 'nft', 'nfts', 'defi', 'token sale', 'ico', 'memecoin', 'dogecoin', 'solana', 'wallet seed'],
  hacking: ['malware', 'ransomware', 'keylogger', 'exploit', 'zero-day', 'sql injection', 'ddos', 'botnet', 'phishing kit', 'reverse shell', 'privilege escalation', 'crack passwords', 'hack into'],
};

const ALIASES: Readonly<Record<string, string>> = {
  weapon: 'weapons', firearms: 'weapons', guns: 'weapons', selfharm: 'self_harm', suicide: 'self_harm', drug: 'drugs',
  narcotics: 'drugs', betting: 'gambling', casino: 'gambling', sexual: 'adult', nsfw: 'adult', porn: 'adult',
  hate_speech: 'hate', terrorism: 'extremism', political: 'politics', elections: 'politics', religious: 'religion',
  health: 'medical', medicine: 'medical', medical_advice: 'medical', law: 'legal', legal_advice: 'legal',
  finance: 'financial_advice', investing: 'financial_advice', investment: 'financial_advice', cryptocurrency: 'crypto',
  malware: 'hacking', cybercrime: 'hacking',
};

/** Canonical topic key for a configured topic name, or null when it is not a built-in topic. */
export function canonicalTopic(name: string): string | null {
  const key = name.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if (key in TOPIC_LEXICON) return key;
  return ALIASES[key] ?? null;
}
