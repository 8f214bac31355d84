/**
 * Other languages than the translator's two: Latin-script text in French, Spanish, Dutch, ... scores
 * like English or German on character trigrams (detect.js), and was translated as if it were one of
 * them. Their most frequent short words tell them apart: a handful of function words make up a
 * third or more of any sentence, and are not words of English or German.
 *
 *   otherLanguage(['le', 'chat', 'dort', 'sur', 'le', 'canapé'])  // { language: 'fr', hits: 3, ... }
 *
 * Each list holds frequent words of its language that are not (frequent) English or German words:
 * no "in", "is", "die", "was", "also", "an", "as", "so", "man", "des", "es", "no", "for", "a".
 * Words shared by related languages ("de", "la", "que", "och"/"og") are in each list; the words that
 * differ between them ("het" Dutch, "af" Danish, "av" Norwegian) decide.
 */

// English and German function words, counted the same way, so that a German sentence quoting a
// French title ("Sie sang „Je ne regrette rien“ in Paris") stays German.
const HOME_WORDS = {
  en: `the of and to that it with for this was are have be you not on they his her from but by at or
    which their we been has had were would there what when will can all if who one she him them its
    our your than then these those into about could should i do my me no s t`,
  de: `der die das und ist nicht ein eine zu mit den von sich auf es ich sie wir auch dem im für
    sind wird werden hat haben war einen einer eines noch nach bei aus wie dass oder aber nur
    wenn kann schon über uns ihr ihre sein seine du dir mir mich dich`,
};

// One-letter words are few: "s" and "t" are what is left of "it's" and "don't" (English), "a", "i" are
// English ("o", "e", "y", "w", "z" are not, and each list needs two different words to count).
const OTHER_WORDS = {
  fr: `le la les une du et est que qui dans pour pas sur au aux avec ce cette ces sont il elle nous
    vous ils elles ne se sa ses mais ou où très été être avoir à de un en peut fait comme leur
    leurs même aussi sans sous entre quand tout tous toutes cela ça lui je tu mon ma mes votre`,
  es: `y el la los las del por para con una que en de un se su sus al lo como más pero está muy
    también porque cuando sobre este esta estos estas hay le les ya fue ser puede entre todo
    todos desde hasta donde yo mi nos ha han ella él si`,
  it: `e il di che è sul sulla la per un una non sono del della delle dei degli gli le con si ma anche più
    questo questa nel nella alla alle al lo ha hanno essere se tutto tutti quando io mi ci suo sua
    loro molto già può`,
  pt: `o e os de da do das dos no em uma não que é com para por se mais muito na ao aos são está ou mas como
    foi ser seu sua seus suas ele ela eles nos pode quando também já tem isso este esta`,
  nl: `de het een en van niet zijn voor met op te ook maar naar bij uit heeft deze dit wordt worden
    kan hij zij wij ze nog geen wat om aan tot hun moet werd waar ik je jij mijn hebben heb wel veel
    zou omdat heel zo`,
  sv: `och att det som en är på för med har inte av jag om var ett kan så vi från sig han hon de
    eller vid efter när också hade blir skulle alla detta finns dig mig vara bara sitt`,
  da: `og det som en på med har ikke af jeg om var et kan så vi fra sig han hun de eller ved efter
    når også havde bliver skal dette hvad noget meget blev dig mig være kun hvis mens`,
  nb: `og det som en på med har ikke av jeg om var et kan så vi fra seg han hun de eller ved etter
    når også hadde blir skal dette hva noe mye ble deg meg være kun hvis mens`,
  pl: `w z i do to na się nie że jest jak ale co tak za od jego już być tym może są które który która przez
    przy dla czy też jednak lub ze było bardzo mnie`,
  cs: `v z do to je se na že jako ale jsou pro tak jeho který která které byl bylo být už také jen nebo při
    podle když`,
  ro: `și şi de în la cu pe care că nu din mai este sunt un să au fost fi ca sau pentru lui ei acest
    această dar foarte`,
  tr: `bir ve bu de için ile ne çok daha olarak gibi mi var olan ama en kadar sonra sen onun değil
    veya şey`,
  id: `dan yang di ini itu dengan untuk dari tidak akan ke ada dalam juga saya pada atau oleh bisa
    sudah karena kami mereka adalah telah`,
  hu: `az és hogy nem egy meg van ez de volt csak már még vagy azt ki kell lesz ezt úgy nagyon
    minden`,
};

const toSet = (words) => new Set(words.split(/\s+/).filter(Boolean));
const HOME = Object.fromEntries(Object.entries(HOME_WORDS).map(([l, w]) => [l, toSet(w)]));
const OTHER = Object.fromEntries(Object.entries(OTHER_WORDS).map(([l, w]) => [l, toSet(w)]));

/** The languages otherLanguage() can name, besides the translator's two. */
export const OTHER_LANGUAGES = Object.freeze(Object.keys(OTHER));

// A text is named another language when at least this many different function words of it, and this
// share of its words, are that language's, and it has clearly more of them than of English's or German's
// (measured: weights/EXPERIMENTS.md, "Language detection: other languages").
const MIN_HITS = 2;
const MIN_SHARE = 0.2;
const HOME_RATIO = 2;

/**
 * @param {string[]} words the text's words, lower case (normalizeForDetection split at spaces)
 * @returns {{language: string, confidence: number} | null} the other language the words are in, or
 *   null when they read as English, German or nothing known. `confidence`: a logistic of
 *   how many more of its words are this language's than the runner-up's (0.5: a tie).
 */
export function otherLanguage(words) {
  const count = (set) => words.reduce((n, w) => n + (set.has(w) ? 1 : 0), 0);
  const home = Math.max(...Object.values(HOME).map(count));
  const scored = Object.entries(OTHER).map(([language, set]) => [language, count(set)]).sort((a, b) => b[1] - a[1]);
  const [[language, hits], [, runnerUp]] = scored;
  const distinct = new Set(words.filter((w) => OTHER[language].has(w))).size;
  if (distinct < MIN_HITS || hits < MIN_SHARE * words.length || hits <= HOME_RATIO * home) return null;
  // Related languages can tie (Danish and Norwegian share most such words): then the confidence is
  // 0.5, the text is still not English or German.
  const margin = hits - Math.max(runnerUp, home);
  return { language, confidence: 1 / (1 + Math.exp(-margin)) };
}
