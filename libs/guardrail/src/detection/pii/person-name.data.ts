/**
 * Reference lists for the person-name recognizer. First names raise confidence (and allow
 * weak cues such as "I'm"); the stop lists keep greetings, roles and organizations out.
 */
const FIRST_NAMES_TEXT = `
james john robert michael william david richard joseph thomas charles christopher daniel matthew anthony mark donald
steven paul andrew joshua kenneth kevin brian george timothy ronald edward jason jeffrey ryan jacob gary nicholas eric
jonathan stephen larry justin scott brandon benjamin samuel gregory alexander frank patrick raymond jack dennis jerry
tyler aaron jose adam nathan henry douglas zachary peter kyle ethan walter noah jeremy christian keith roger terry
gerald harold sean austin carl arthur lawrence dylan jesse jordan bryan billy joe bruce gabriel logan albert willie
alan juan wayne elijah randy roy vincent ralph eugene russell bobby mason philip louis harry oliver liam lucas leo
mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret sandra ashley
kimberly emily donna michelle carol amanda dorothy melissa deborah stephanie rebecca sharon laura cynthia kathleen amy
angela shirley anna brenda pamela emma nicole helen samantha katherine christine debra rachel carolyn janet catherine
maria heather diane ruth julie olivia joyce virginia victoria kelly lauren christina joan evelyn judith megan andrea
cheryl hannah jacqueline martha gloria teresa ann sara madison frances kathryn janice jean abigail alice judy sophia
grace denise amber doris marilyn danielle beverly isabella theresa diana natalie brittany charlotte marie kayla alexis
lori claire chloe zoe lily ella mia ava harper amelia sofia isla freya poppy
hans peter klaus jürgen jurgen stefan thomas andreas michael wolfgang uwe frank markus matthias martin bernd dieter
lukas jonas felix maximilian leon finn paul elias ben niklas tobias florian sebastian moritz jan tim philipp johannes
ursula monika petra sabine renate helga ingrid gisela birgit claudia susanne andrea anja katrin nicole julia lena
leonie hannah lea laura sophie marie johanna katharina emilia mila clara greta frieda ida luisa
jean pierre michel philippe alain nicolas christophe françois francois patrick daniel bernard eric laurent frédéric
frederic olivier stéphane stephane julien sébastien sebastien thierry antoine hugo louis gabriel raphaël raphael
arthur jules théo theo baptiste mathieu guillaume maxime romain vincent yves rené rene
marie nathalie isabelle sylvie catherine françoise francoise monique valérie valerie sandrine sophie céline celine
chantal camille manon chloé inès ines léa lea juliette louise jade amandine aurélie aurelie margaux élodie elodie
josé jose antonio manuel francisco juan david javier daniel carlos jesús jesus alejandro miguel rafael pedro pablo
sergio fernando jorge luis alberto álvaro alvaro diego adrián adrian raúl raul enrique ramón ramon andrés andres
mateo santiago hugo martín martin lucía lucia carmen josefa isabel dolores pilar teresa ana rosa cristina marta
elena laura paula sara raquel beatriz silvia patricia mercedes rocío rocio alba claudia valentina sofía sofia
giuseppe giovanni antonio mario luigi francesco angelo vincenzo pietro salvatore carlo franco domenico bruno paolo
michele giorgio aldo sergio luciano marco alessandro andrea matteo lorenzo leonardo riccardo davide simone federico
giulia francesca chiara federica sara valentina alessia martina elisa silvia paola elena anna laura giovanna rosa
lucia angela maria teresa sofia aurora ginevra beatrice
joão joao pedro gabriel lucas mateus guilherme rafael felipe gustavo bruno rodrigo thiago tiago diogo miguel
afonso duarte rui nuno ricardo paulo fernando carlos jorge marcos vinícius vinicius leonardo
ana beatriz mariana larissa camila fernanda juliana patrícia patricia letícia leticia gabriela rafaela inês ines
joana catarina sofia leonor matilde carolina francisca margarida luana bruna
mohammed muhammad ahmed ali omar hassan hussein fatima aisha yusuf ibrahim mustafa khalid layla zainab
wei li ming hui jun yan ling xiao chen hiroshi takashi yuki kenji sakura haruto yuna minjun jiwoo seojun
raj rahul amit priya anjali deepak sunil vikram arjun rohan neha pooja sanjay anil kavita
olga ivan dmitri sergei natasha svetlana irina alexei tatiana vladimir anastasia katarzyna piotr tomasz agnieszka
lars erik sven anders ingrid astrid nils karin johan mats bjorn björn henrik magnus sigrid
sean aoife siobhan ciaran niamh patrick declan
`;

export const FIRST_NAMES: ReadonlySet<string> = new Set(FIRST_NAMES_TEXT.split(/\s+/).filter((name) => name.length > 0));

/** First names that are also ordinary words or places; they count only with a cue. */
export const AMBIGUOUS_FIRST_NAMES: ReadonlySet<string> = new Set([
  'april', 'may', 'june', 'bill', 'will', 'mark', 'grant', 'rose', 'georgia', 'virginia', 'jordan', 'paris', 'florence',
  'austin', 'sydney', 'victoria', 'chase', 'frank', 'grace', 'hope', 'joy', 'faith', 'art', 'ray', 'rosa', 'pilar',
  'dolores', 'mercedes', 'carmen', 'aurora', 'louis', 'jean', 'jack', 'sean', 'ben', 'jan', 'tim', 'ida', 'ines', 'sara',
  'lea', 'mila', 'paula', 'alba', 'marta', 'ana', 'li', 'ming', 'wei', 'jun', 'yan', 'ali', 'raj', 'amit', 'lars', 'mats',
]);

/** Capitalized words that follow greetings or cues but are not names. */
export const NOT_NAME_WORDS: ReadonlySet<string> = new Set(
  `
  I Me We You He She They It The A An This That These Those There Here All Everyone Everybody Team Teams Folks Guys Sir
  Sirs Madam Madame Ma'am Friends Colleagues Customer Customers Client Clients Support Service Services Sales Admin
  Manager Managers Hiring Recruiter User Users Members Member Staff Partner Partners Board Committee Department Dept
  Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September
  October November December Thanks Thank Regards Best Kind Warm Cheers Sincerely Yours Dear Hello Hi Hey Good Morning
  Afternoon Evening Night Please Welcome Congratulations Happy New Re Fwd Fw Subject Note Update Attached Attachment
  Sent From To Cc Bcc Date Name Phone Email Address Mobile Office Home Work Tel Fax Web Website Mr Mrs Ms Dr Prof
  Alle Liebe Lieber Team Kollegen Damen Herren Mesdames Messieurs Tous Equipe Équipe Todos Equipo Equipa Tutti Ciao
  Grazie Danke Merci Gracias Obrigado Obrigada Saludos Grüße Gruesse Cordialement Atentamente Cordiali Saluti
  Atenciosamente Abraços Here's Just Yes No Not OK Okay Sure Also And Or But So Then Now Today Tomorrow Yesterday
  Google Microsoft Apple Amazon Meta Facebook OpenAI Anthropic Netflix Tesla IBM Oracle Salesforce Slack Zoom Teams
  Outlook Gmail Excel Word PowerPoint Jira Confluence GitHub GitLab Stripe PayPal Visa Mastercard Uber Airbnb
  English German French Spanish Italian Portuguese Europe America Africa Asia London Berlin Paris Madrid Rome Lisbon
  `.split(/\s+/).filter((word) => word.length > 0),
);

/** Tokens that mark the preceding capitalized words as an organization, not a person. */
export const ORGANIZATION_SUFFIXES: ReadonlySet<string> = new Set(
  `
  Inc Inc. LLC LLP Ltd Ltd. Limited GmbH AG KG SA S.A. SAS SARL SpA S.p.A. Srl S.r.l. BV NV Plc PLC Corp Corp. Corporation
  Co Co. Company Group Holdings Holding Partners Bank Banco Banque University Universität Université Universidad
  Università Universidade College Institute Institut Instituto Istituto Foundation Stiftung Fondation Fundación Labs Lab
  Technologies Technology Tech Systems Solutions Consulting Consultants Associates Ventures Capital Industries
  Enterprises Media Software Services Hotel Hotels Hospital Clinic Klinik School Schule Academy Airlines Airways Motors
  Pharma Pharmaceuticals Insurance Versicherung Realty Properties Studios Studio Records Brothers Bros Sons Law Legal
  Logistics Energy Foods Networks Analytics Cloud Digital Health Healthcare Medical Robotics Security Agency Store Shop
  Restaurant Cafe Café Bakery Garage Trust Fund Council Ministry Association Club Society Church Museum Press
  `.split(/\s+/).filter((word) => word.length > 0),
);

/** Companies named after people; lower-cased "first last" keys. */
export const PERSON_NAMED_BRANDS: ReadonlySet<string> = new Set([
  'morgan stanley', 'goldman sachs', 'wells fargo', 'charles schwab', 'john deere', 'louis vuitton', 'hugo boss',
  'ralph lauren', 'calvin klein', 'tommy hilfiger', 'estée lauder', 'estee lauder', 'walt disney', 'dow jones',
  'giorgio armani', 'yves saint laurent', 'christian dior', 'coco chanel', 'harley davidson', 'rolls royce',
  'aston martin', 'alfa romeo', 'jack daniels', 'johnnie walker', 'tim hortons', 'marks spencer', 'ernst young',
  'philip morris', 'bang olufsen', 'dolce gabbana', 'salvatore ferragamo', 'michael kors', 'kate spade', 'tory burch',
  'vera wang', 'victoria secret', 'martha stewart living', 'ben jerry', 'johnson johnson', 'procter gamble',
  'paul smith', 'ted baker', 'karl lagerfeld', 'jean paul gaultier', 'emilio pucci', 'carolina herrera',
]);
