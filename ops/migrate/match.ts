/**
 * Matching an old page to a page of the new site, on what the old page says about itself and on the new
 * site's structure:
 *
 * - its URL's words, its names (title, headline in any heading, og:title, the menu labels and anchor texts
 *   of the links pointing at it) and its text, compared on word stems; the text by a TF-IDF cosine over the
 *   new site's pages;
 * - intents a URL or a short name states (booking, contact, directions and hours, emergency, prices, legal
 *   notice, privacy): the page of the new site for it, whatever the wording;
 * - the new site's structure: a team member's page only for an old page naming that member (a former member's
 *   page: the team page), a job's page only for an old offer page (a job announced in a news post: the jobs
 *   page), the page speaking of both options (a need page first) for an old page asking a question between
 *   them ("implant ou bridge ?");
 * - the practice's presentation for its old "le cabinet" page, the new site's page for all the treatments for an
 *   overview of them (none: no redirect, the home page its guess for review); a document by what its name says it
 *   is for (a map, prices...);
 * - a confidence calibrated per site (siteThreshold): sites whose text was reworded score lower throughout,
 *   so the bar is set from the site's own scores, between FLOOR_CONFIDENCE and MIN_CONFIDENCE, and a best guess
 *   under MIN_CONFIDENCE is taken only when it clearly beats the runner-up, or when the headline's rare words
 *   are on that page only.
 *
 * The home page takes the old home page only: a redirect of another old page to it is a soft 404 to a search
 * engine, and no old page is sent there for lack of a better match.
 */
import { normaliseRedirectPath } from "../../src/server/redirects/map";
import type { Platform } from "../../src/server/redirects/grammar";
import type { NewPage } from "./new-site";
import { containment, forATime, FRENCH_MONTHS, WEEKDAYS, jaccard, keywords, lastSegment, LISTING_URL, namesPracticalInfo, PRACTICAL, publishedYear, readablePath, slugWords, words, yearInUrl } from "./text";

export interface OldPage {
  path: string;
  title: string;
  h1: string;
  text: string;
  /** What else names the page: its headline, og:title, the texts of the links pointing at it. */
  names?: string[];
  /** Its own headline (H1, else the heading marked as the headline: Joomla's `<h2 itemprop="headline">`). */
  headline?: string;
  /** The date it states it was published (page.ts), "" or absent when none. */
  published?: string;
  /** Other pages of the old site lie under its path (`/soins/` over `/soins/implants/`): it heads a section. */
  headsSection?: boolean;
  /**
   * The albums it may belong to (itself, its path without the query, its folder's page), each with all of its text,
   * the captions its links carry included: what a gallery shows is decided for the whole album.
   */
  albums?: { path: string; title: string; text: string }[];
}

export interface Match {
  target: string;
  confidence: number;
  by: string;
}

export interface MatchResult {
  match: Match | null;
  best: Match | null;
  /** The best confidence of another target (for the calibration). */
  runnerUp: number;
  /** Why the best guess must be reviewed whatever agrees with it (an aftercare leaflet). */
  review?: string;
  /** A subject's score on each page of the new site (bySubject). */
  scores?: Map<string, number>;
}

/** From this confidence a best guess is taken on any site. */
export const MIN_CONFIDENCE = 0.2;
/** No site's calibrated bar goes under this. */
export const FLOOR_CONFIDENCE = 0.17;
/** Under MIN_CONFIDENCE, the runner-up must stay under this share of the best guess. */
const CLEAR_MARGIN = 0.75;
const WEIGHTS = { slug: 0.25, title: 0.25, text: 0.5 };

/** Text stems: the first seven letters ("implants" meets "implantologie"). */
const stem = (word: string) => word.slice(0, 7);
/** A stem without a plural's final s or x: "enfants" and "enfant" stem apart ("enfants", "enfant"). */
const singular = (stemmed: string) => (stemmed.length > 3 ? stemmed.replace(/[sx]$/, "") : stemmed);
/** A document's words, shorter stems: its name is a few words, and "tarifaire" must meet "tarifs". */
const short = (word: string) => word.slice(0, 5);
const shorts = (text: string) => new Set(keywords(text).map(short));
const stems = (text: string) => new Set(keywords(text).map(stem));

/** Intents an old URL or a short name states, and how the new page for each is recognised. */
interface Intent {
  name: string;
  words: RegExp;
  page: (p: NewPage) => boolean;
  fallback?: (p: NewPage) => boolean;
  /**
   * The words that send a page to the fallback, when they are not all of `words`: the service itself ("Urgences
   * dentaires le week-end": how to reach the practice), not a condition it treats ("Dent cassée : les bons
   * réflexes": advice, which the contact page does not give).
   */
  fallbackWords?: RegExp;
  /**
   * Stated by the page's last segment or a whole own name only (its title, its H1), not by its section (`/equipe/dr-x`
   * is a person), a link's text or a name's topic before a colon ("L'équipe : Julie Roussel").
   */
  ownNameOnly?: boolean;
  /** Kinds of word a name must each have one of, besides being made of `words` ("première" and "consultation"). */
  needs?: RegExp[];
  /** Words that may stand beside `words` in a name stating it, besides FILLER ("Nouveau : la radio 3D au cabinet"). */
  context?: RegExp;
}
/** The emergency service's own words (how to reach the practice out of hours), not a condition's. */
const EMERGENCY_SERVICE = "urgence|urgences|emergency|emergencies|garde";
/**
 * The equipment a practice shows (accents removed): what makes an album a view of the page presenting the equipment
 * rather than pictures of rooms (decision 0063, amended 2026-11-27), and what a page named only by it presents (the
 * `equipment` intent, with the words of hygiene and technique; not a laser, which is also a care).
 */
const EQUIPMENT_WORDS = "equipement|equipements|equipment|radiographie|radiographies|radiographique|radiologie|radio|radios|imagerie|panoramique|panoramiques|sterilisation|sterilization|sterilisateur|autoclave|autoclaves|camera|cameras|scanner|scanners|microscope|microscopes|cbct|cone|imprimante|imprimantes|empreinte|empreintes|xray|rx";
const EQUIPMENT = new RegExp(`^(?:${EQUIPMENT_WORDS}|laser|lasers)$`);

/** The words of news, beside what a post announces ("Nouveau :", "désormais", "enfin"). */
const NOVELTY = "nouveau|nouvelle|nouveaux|nouvelles|nouveaute|desormais|enfin";

/** The words of a step-free access: accessibility, disability, a lift, a ramp. */
const STEP_FREE = "accessibilite|accessible|pmr|ascenseur|ascenseurs|rampe";

/** The new site's first visit page, by its slug. */
const FIRST_VISIT_SLUG = /^(?:premiere|first|1ere|nouveau-patient|nouveaux-patients|new-patient)/;

/** "First" and "new", of a visit or a patient; and the visit, or the patient. */
const FIRST = "premiere|premier|1ere|1er|nouveau|nouveaux|nouvelle|nouvelles";
const VISIT = "visite|visites|consultation|consultations|patient|patients|patiente|patientes";

const INTENTS: Intent[] = [
  {
    name: "booking",
    // (Not "agenda": a practice's agenda lists its events, open days and closures.)
    words: /^(?:rdv|rendez|rendezvous|reserver|reservez|reservation|booking|bookings|doctolib|prise|calendar)$/,
    page: (p) => /rendez|rdv|reserv/.test(`${p.slug} ${words(p.title).join(" ")}`),
    fallback: (p) => p.kind === "contact",
  },
  // (`/contactus`, Odoo's and the English templates' page, and its `/contactus-thank-you`.)
  { name: "contact", words: /^(?:contact|contacts|contactus|contacter|contactez|ecrire|joindre|com_contact)$/, page: (p) => p.kind === "contact" },
  // A first visit, or new patients ("Première consultation", "Nouveaux patients"): the new site's page for it. (Not
  // "premier rendez-vous", which may be booking one: weighed by what the page says.)
  {
    name: "first visit",
    words: new RegExp(`^(?:${FIRST}|${VISIT})$`),
    needs: [new RegExp(`^(?:${FIRST})$`), new RegExp(`^(?:${VISIT})$`)],
    page: (p) => FIRST_VISIT_SLUG.test(p.slug),
    // And how to prepare it ("Préparer sa première consultation", "Bien préparer votre première visite"): the page
    // preparing it is the first visit's (Joomla 4's and WPML's truths).
    context: /^(?:preparer|preparez|preparation|bien|sa|son|ses)$/,
  },
  {
    name: "directions",
    // Opening hours too: the new site gives them with the directions ("Accès et horaires"), else on its contact page.
    // And the access for patients in a wheelchair or a pushchair ("Accessibilité", "Accès handicapés"): on the same
    // page (a floor, a lift, a ramp); six blind truths send theirs there.
    // And where to park ("Où se garer ?", "Horaires, accès et stationnement"): the page giving the address says it
    // (Contao's and WPML's truths; every new site's directions page names its parking).
    words: new RegExp(`^(?:acces|access|itineraire|venir|trouver|situer|localisation|parking|stationnement|stationner|garer|plan|horaires|hours|${STEP_FREE})$`),
    page: (p) => /^(?:acces|plan-acces|venir|nous-trouver|itineraire)/.test(p.slug),
    fallback: (p) => p.kind === "contact",
    // A question of where ("Où se garer ?", "Où nous trouver ?": `ou` once its accent is gone, and a reflexive's pronoun).
    context: /^(?:ou|se|me)$/,
  },
  {
    name: "emergency",
    // "Rage de dent(s)": an acute toothache, what a dental emergency is; so are a broken tooth ("Dent cassée :
    // les bons réflexes") and an abscess.
    words: new RegExp(`^(?:${EMERGENCY_SERVICE}|rage|cassee|cassees|abces)$`),
    page: (p) => /urgence|emergency/.test(`${p.slug} ${words(p.title).join(" ")}`),
    fallback: (p) => p.kind === "contact",
    fallbackWords: new RegExp(`^(?:${EMERGENCY_SERVICE})$`),
  },
  // A photo gallery of the practice and its photos' pages (`/galerie.php?img=3`, "Photo - La salle d'attente"): when
  // the album shows the equipment (EQUIPMENT), the new site's page presenting its equipment and premises; an album of
  // the rooms alone (the entrance, the waiting room, the surgeries) has no counterpart (decision 0063).
  {
    name: "gallery",
    words: /^(?:galerie|galeries|gallery|photo|photos|album|albums|diaporama)$/,
    page: (p) => /^(?:technolog|equipement|plateau-technique|locaux|visite|galerie|photos)/.test(p.slug),
  },
  // A tour of the premises ("Visite virtuelle", "Visite du cabinet", "Le cabinet en images"): a gallery, not a first
  // visit. Stated by the page's own name only: a menu's "Visite" may lead to the page of the equipment (Wix's).
  {
    name: "gallery",
    words: /^(?:visite|visites|virtuelle|images|locaux)$/,
    // (Of the premises: "Votre visite" alone is a patient's.)
    needs: [/^(?:virtuelle|images|cabinet|centre|locaux)$/],
    ownNameOnly: true,
    page: (p) => /^(?:technolog|equipement|plateau-technique|locaux|visite|galerie|photos)/.test(p.slug),
  },
  // A page named by the equipment or the hygiene it presents ("Hygiène et stérilisation", "Radiographie numérique",
  // "Nos équipements"): the new site's page presenting its equipment. Two blind truths send their sterilisation
  // pages there (e-monsite's, SPIP's). Every word of the name must be one of these: "Le laser en parodontologie" is
  // the treatment's, and so is "Laser" alone (a care the static site's truth drops: not one of EQUIPMENT_WORDS).
  {
    name: "equipment",
    words: new RegExp(`^(?:${EQUIPMENT_WORDS}|technologie|technologies|technique|techniques|materiel|plateau|hygiene|tracabilite|numerique|numeriques|3d|intra|buccale|intrabuccale|beam|optique)$`),
    page: (p) => /^(?:technolog|equipement|plateau-technique)/.test(p.slug),
    // A news post announcing one ("L'empreinte optique arrive au cabinet", "Nouveau : la radio 3D au centre"): six
    // blind truths send theirs to the page presenting the equipment.
    context: new RegExp(`^(?:${NOVELTY}|arrive|arrivent|arrivee|au|aux)$`),
  },
  // The index of the old team (`/l-equipe`, "Notre équipe"): the new site's team page. Not a page in the team's
  // section (a member's, a former member's).
  { name: "team", words: /^(?:equipe|team|praticiens|staff)$/, page: (p) => p.kind === "team", ownNameOnly: true },
  // The practice's approach ("Notre approche", "Notre approche des soins", "Dentisterie douce", "Nos valeurs"): the new
  // site's page of its philosophy. Six blind truths holding one send it there (e-monsite, GoDaddy, Google Sites, PluXml,
  // Simplébo, SPIP), none elsewhere. Its own whole name only: a section `/dentisterie-douce/hypnose/` is a technique's.
  {
    name: "approach",
    words: /^(?:approche|philosophie|valeurs|dentisterie|douce|soins)$/,
    needs: [/^(?:approche|philosophie|valeurs|douce)$/],
    ownNameOnly: true,
    page: (p) => /^philosoph/.test(p.slug),
  },
  // Fees ("Honoraires", `/tarifs`): the new site's price page, whatever link names it ("Tarifs des implants").
  // (And what the visitor pays after insurance: "Mutuelles et tiers payant", "Tiers payant et C2S"; every one of the
  // blind truths holding such a page sends it to the prices. A page naming anything else beside them, "Mutuelle et
  // implants", is not only about them; "Remboursements : ce qui change au 1er octobre" is news of a change, and "Devis"
  // a form, left to the scores.)
  { name: "prices", words: /^(?:tarif|tarifs|tarification|honoraire|honoraires|prix|price|prices|pricing|fees|mutuelle|mutuelles|tiers|payant|c2s|cmu)$/, page: (p) => /^(?:tarif|honoraire|prix|price)/.test(p.slug) },
  { name: "legal notice", words: /^(?:mentions|legales|legal|imprint)$/, page: (p) => p.kind === "legal" },
  { name: "privacy", words: /^(?:confidentialite|rgpd|privacy|cookies)$/, page: (p) => p.kind === "privacy" },
];
/** A site map's name ("Plan du site", "Sitemap"), as words() reads it. */
const SITE_MAP = /\b(?:plan du site|plan de site|sitemap|site map)\b/;
const BOOKING_PATH = /^\/(?:service-page|booking-calendar|book-online|bookings?|prise-de-rendez-vous|appointments?)(?:\/|$)/i;
/**
 * What a name says its page is about, as word lists: the whole name, its part before a colon or a dash (the
 * topic: "Urgences dentaires : que faire le week-end ?"), each without a question's framing ("Que faire en cas
 * de rage de dent ?": rage de dent).
 */
function topicsOf(name: string): string[][] {
  const head = name.split(/\s+[:\u2013\u2014|-]\s+|\s*:\s+/)[0];
  return [...new Set([name, head])].map((n) => words(words(n).join(" ").replace(/^(?:que|quoi) faire (?:en cas d(?:e )?|si |quand |face a |contre )?/, "")));
}

/** Words that say nothing of an intent but may stand beside one (`/nous-contacter`, `/prendre-rendez-vous`). */
const FILLER = /^(?:nous|vous|prendre|prenez|ligne|en|page|com|form|formulaire|cabinet|centre|dents?|dentaires?|infos?|informations?|pratiques?|nos|notre|our|votre|vos|your|us|thank|thanks|you|merci)$/;

/**
 * New opening hours ("Nouveau : le centre ouvert le samedi matin", "le cabinet ouvert le jeudi soir"): the page's own
 * name (its URL's last segment, a whole title) says only that, a day of the week and a word of opening among words
 * of hours (HOURS_CONTEXT), and no word of closing or of a one-off (a holiday, "exceptionnelle", a date: a weekday
 * followed by a number). What the post announced, the hours, is on the page giving them (directions, else contact)
 * as long as the practice keeps them. Two blind truths send such posts there (Webflow's, Weebly's).
 */
const WEEKDAY = new RegExp(`^(?:${WEEKDAYS})s?$`);
// (And a regular day of closing, "le cabinet ferme le mercredi", "Nouveaux horaires : fermé le mercredi": a weekday not
// followed by a date is the week's, not a holiday's; three blind truths send such posts to the hours. A one-off closing
// names a date or a word of its time, which HOURS_CONTEXT does not hold.)
const OPENING = /^(?:ouvert|ouverte|ouverts|ouvertes|ouverture|ouvre|nocturne|nocturnes|horaires|consultations|ferme|fermee|fermes|fermees)$/;
const HOURS_CONTEXT = /^(?:c|est|nouveau|nouveaux|nouvelle|nouvelles|nouveaute|desormais|maintenant|aussi|egalement|cabinet|centre|matin|matins|soir|soirs|midi|apres|jusqu|heures?|h|tous|toutes|les|le|la|l|de|du|des|en|et|a|au|aux|votre|notre|nos|vos|partir|chaque|semaine|semaines|\d+)$/;
/** An hour of the day ("20h", "19h30"): new hours say one when they name no day ("ouvert jusqu'à 20h"). */
const HOUR = /^\d{1,2}h(?:\d{2})?$/;
/** Whether a match is the directions intent's (the page giving the address and the hours, or its stand-in). */
export function statesDirections(match: Match | null): boolean {
  return match?.by === `intent: ${DIRECTIONS.name}`;
}

/** Whether a page's URL or title names a holiday's, a season's or a time's hours (text.ts forATime). */
export function seasonal(path: string, title: string): boolean {
  // (Every word of the URL, decoded, in order: `horaires-d-ete` says summer, where slugWords leaves "d" out.)
  return forATime(words(readablePath(path))) || forATime(words(title));
}

/** A month, or the return after the summer: when new hours begin ("Nouveaux horaires à la rentrée", "... septembre 2022"). */
const MONTH = new RegExp(`^(?:${FRENCH_MONTHS}|rentree)$`);
/** A word of closing (OPENING holds them for a regular day of closing). */
const CLOSING = /^(?:ferme|fermee|fermes|fermees)$/;
const announcesHours = (set: string[]): boolean => {
  // A closing is the week's only as "le mercredi", "les samedis", with no month, date or end ("fermé samedi" is this
  // Saturday; "fermé le samedi en août", "jusqu'au 15 septembre" are for a time: the outside review's).
  if (set.some((w) => CLOSING.test(w))) {
    const weekly = set.some((w, i) => WEEKDAY.test(w) && (/^les?$/.test(set[i - 1] ?? "") || /s$/.test(w)) && !/^\d+$/.test(set[i + 1] ?? ""));
    // (A month it starts from is no bound: "À partir de septembre, le cabinet ferme le mercredi", "dès la rentrée".)
    const from = (i: number) => set[i - 1] === "des" || set[i - 1] === "depuis" || (set[i - 1] === "de" && set[i - 2] === "partir");
    if (!weekly || set.some((w, i) => (MONTH.test(w) && w !== "rentree" && !from(i)) || /^\d+$/.test(w) || w === "jusqu")) return false;
  }
  const day = set.findIndex((w) => WEEKDAY.test(w));
  // A day not followed by a number (a date's), an hour ("19h", "20 heures"), or new hours ("Nouveaux horaires 2022").
  const hasDay = day !== -1 && !/^\d+$/.test(set[day + 1] ?? "");
  const hasHour = set.some((w, i) => HOUR.test(w) || (/^\d{1,2}$/.test(w) && /^(?:h|heures?)$/.test(set[i + 1] ?? "")));
  const newHours = set.some((w) => /^horaires?$/.test(w)) && set.some((w) => NOVELTY_WORD.test(w));
  if (!(day === -1 ? hasHour || newHours : hasDay)) return false;
  // (Or a day coming back every week, "Le samedi matin, c'est désormais chaque semaine": Drupal 10's truth, as five
  // others send their Saturday openings to the hours.)
  const weekly = hasDay && set.some((w, i) => w === "chaque" && /^semaines?$/.test(set[i + 1] ?? ""));
  return (set.some((w) => OPENING.test(w)) || (hasDay && hasHour) || weekly) && set.every((w) => WEEKDAY.test(w) || HOUR.test(w) || OPENING.test(w) || HOURS_CONTEXT.test(w) || MONTH.test(w));
};

/**
 * A new step-free access ("Enfin un ascenseur !", "Un ascenseur pour accéder au cabinet"): the page's own name says
 * only that (STEP_FREE among words of access and of news). Like the hours, what it announced is on the page giving
 * the directions as long as the building has it (SPIP's and IONOS's blind truths send such posts there).
 */
const STEP_FREE_WORD = new RegExp(`^(?:${STEP_FREE})$`);
const ACCESS_CONTEXT = /^(?:enfin|un|une|pour|acceder|accedez|acces|fauteuil|fauteuils|roulant|roulants|poussette|poussettes|personnes|mobilite|reduite|installe|installation|arrive|ete)$/;
/** A disability, which names the access only beside "accès" ("Accès handicapés"; "Soins et handicap" is care). */
const DISABILITY = /^(?:handicap|handicapes|handicapees|handicape|handicapee)$/;
const announcesAccess = (set: string[]): boolean =>
  (set.some((w) => STEP_FREE_WORD.test(w)) || (set.includes("acces") && set.some((w) => DISABILITY.test(w)))) &&
  set.every((w) => STEP_FREE_WORD.test(w) || DISABILITY.test(w) || ACCESS_CONTEXT.test(w) || HOURS_CONTEXT.test(w));

/**
 * The old site's page about the practice itself (`/le-cabinet`, `/le-centre`, "Qui sommes-nous ?", "À propos", its
 * English version's "The practice"),
 * named by these words alone (with fillers): when its text points to no page clearly, it is the first page of
 * the new site's practice section (its presentation). Its last segment or a name, never a section it heads
 * (`/le-cabinet/equipements` is about equipment).
 */
const ABOUT = /^(?:cabinet|centre|about|propos|apropos|presentation|qui|sommes|quisommes|us|practice|clinic)$/;

/** Words of a job offer or a jobs page. */
const JOB = /^(?:recrutement|recrute|recrutons|emploi|emplois|offre|offres|poste|postes|candidature|candidatures|cdi|cdd|carriere|carrieres|job|jobs|rejoindre|rejoignez|careers?)$/;
/** An offer: a job's, unless a care or a commercial word stands beside it (COMMERCIAL, WAYS). */
const OFFER = /^offres?$/;
/** What a commercial offer names beside it: a season, a discount, a welcome. */
const COMMERCIAL = /^(?:promotion|promo|promos|reduction|remise|bienvenue|parrainage|ete|hiver|printemps|automne|noel|soldes|gratuit|gratuite|offert|offerte|blanchiment|eclaircissement)$/;
/**
 * The job an offer is for, from a word of its title or name, in one spelling (`assistant(e)s` is assistant): an old
 * offer for a job the new site offers no more (a secretary's, when it looks for an assistant) was filled; the jobs
 * page is not where its readers go (two blind truths drop such posts, the others send theirs to the jobs page only
 * where the new site offers the same job).
 */
const ROLES: [RegExp, string][] = [
  [/^assistante?s?$/, "assistant"],
  [/^secretaires?$/, "secretaire"],
  // A dentist by any name: a collaborating dentist ("collaborateur"), a practitioner, a "chirurgien-dentiste".
  [/^(?:chirurgien|chirurgienne)s?$/, "chirurgien"],
  [/^dentistes?$/, "chirurgien"],
  [/^(?:collaborateur|collaboratrice)s?$/, "chirurgien"],
  [/^(?:praticien|praticienne)s?$/, "chirurgien"],
  [/^orthodontistes?$/, "orthodontiste"],
  [/^hygienistes?$/, "hygieniste"],
  [/^prothesistes?$/, "prothesiste"],
  [/^(?:receptionniste|hotesse|hote)s?$/, "accueil"],
  [/^(?:remplacant|remplacante)s?$/, "remplacant"],
];
/**
 * A URL's words without a reflexive verb's elided "s" (`le-centre-s-equipe`: the centre equips itself, no team), as
 * withoutReflexiveVerbs reads a text.
 */
// (Its words read whole first: slugWords' keywords have lost the "s", the "d" and the "du" these idioms need.)
const urlWords = (path: string): string[] => keywords(words(lastSegment(path)).join(" ").replace(/(^|\s)s\s+\p{L}+/gu, "$1").replace(HOW_TO, " "));

/**
 * "Emploi" that is no job: "mode d'emploi" (instructions; `mode-d-emploi` in a URL, whose words drop the "d"), "emploi
 * du temps" (a timetable), "le bon emploi du fil" (its use).
 */
const HOW_TO = /\bmodes?\s+(?:d['\u2019\s]\s*)?emplois?\b|\bemplois?\s+du\s+temps\b|\b(?:bon|mauvais)\s+emploi\b/gi;

/** A search for someone ("nous recherchons", "le cabinet cherche"): a job offer when it names a job (ROLES). */
const SEEK = /^(?:cherche|cherchons|cherchent|recherche|recherchons|recherchent)$/;
const rolesOf = (texts: string[]): Set<string> =>
  new Set(texts.flatMap((t) => words(t)).flatMap((w) => ROLES.filter(([re]) => re.test(w)).map(([, role]) => role)));

/**
 * Whether a page's names (its URL's words, its title's, H1's...: word sets) say a job: a job's word, or a search for
 * someone of a job ("Le cabinet cherche un(e) collaborateur(trice)"). (An "offre" beside a care or a commercial word is a
 * commercial one, "Blanchiment : l'offre de l'été", "Offre de bienvenue"; "Offre de collaboration", "Nos offres" are
 * jobs'.) (Any of its names: a link's "Voir l'offre" to "Offre blanchiment été 2021" names the same offer.)
 */
export function statesAJob(wordSets: readonly string[][]): boolean {
  const commercialOffer = wordSets.some((set) => set.some((w) => OFFER.test(w)) && set.some((w) => COMMERCIAL.test(w) || WAYS.test(w)));
  return wordSets.some((set) => set.some((w) => JOB.test(w) && (!OFFER.test(w) || !commercialOffer)) || (set.some((w) => SEEK.test(w)) && rolesOf([set.join(" ")]).size > 0));
}

/** A job's names as the matcher reads them: its URL's last segment's words, and its names' ("mode d'emploi" is no job's). */
export const namesAJob = (path: string, names: readonly string[]): boolean => statesAJob([urlWords(path), ...names.filter(Boolean).map((n) => words(n.replace(HOW_TO, " ")))]);

/**
 * An overview of the practice's treatments (`/nos-soins`, `/services`), named by these words alone: the new
 * site's page for all of them if it has one, else its home page, which lists them (no treatment's page is
 * the overview's subject).
 */
const OVERVIEW = /^(?:soins|services|traitements|prestations|treatments)$/;
/** A patient's state a page may be about: a pregnancy, sensitive teeth. */
const PATIENT_STATE = /^(?:enceinte|enceintes|grossesse|grossesses|sensible|sensibles|sensibilite|sensibilites|hypersensibilite)$/;
/** A field of dental care, as a page of care is named for it. */
const CARE_FIELD = /^(?:parodontologie|parodontie|implantologie|orthodontie|pedodontie|endodontie|prothese|protheses|odontologie)$/;
/** The words of adult patients (a child's are AUDIENCE's). */
const ADULT = /^(?:adulte|adultes)$/;

/**
 * The age whose patients words (in order) are about: children by their words, "à quel âge", "premier bilan", an age
 * under 16 ("dès 7 ans") or a bound of a minor's age ("avant 16 ans", "moins de 18 ans": what the Assurance maladie
 * pays for a child's orthodontics; Concrete's, Kirby's and SiteW's truths send such a page to the children's, or the
 * prices'); adults by theirs, "trop tard" or an age from 18 ("à 40 ans"); null for neither or both.
 */
export function ageOf(list: readonly string[]): "child" | "adult" | null {
  let child = false;
  let adult = false;
  list.forEach((w, i) => {
    const next = list[i + 1] ?? "";
    if (AUDIENCE.test(w) || (w === "quel" && next === "age") || ((w === "premier" || w === "1er") && next === "bilan")) child = true;
    if (ADULT.test(w) || (w === "trop" && next === "tard")) adult = true;
    if (/^\d{1,2}$/.test(w) && next === "ans") {
      const before = list[i - 1] === "avant" || (list[i - 1] === "de" && list[i - 2] === "moins");
      if (Number(w) < 16 || (before && Number(w) <= 18)) child = true;
      else if (Number(w) >= 18) adult = true;
    }
  });
  return child === adult ? null : child ? "child" : "adult";
}

/** A page in the old site's section of treatments (`/soins/...`, `/nos-soins/...`, `/fr/soins/...`). */
const CARE_SECTION = /^\/(?:[a-z]{2}\/)?(?:nos-)?(?:soins|traitements|prestations|services|treatments)\/[^/?]/i;
/**
 * A post of a blog or a news section: the URL's section says so, or its date does (`/2018/09/10/slug/`). A job
 * it announced was an offer of its time: it goes to the jobs page, not to the offer the new site lists now.
 */
const NEWS_POST = /\/(?:actualites?|actus?|news|blog|post|posts|articles?|journal|breves?)\/[^?]|\/(?:19|20)\d\d\/\d{1,2}\//i;
/**
 * A practitioner's or a team member's page: under the team's section, or named by a title (`/dr-x`, "Dr X").
 * One naming nobody of the new team is a former member's: it goes to the team page (their patients look there).
 */
const TEAM_SECTION = /^\/(?:(?:[a-z]{2}\/)?(?:l-|notre-|nos-|the-|our-)?(?:equipe|team|praticiens?|dentistes?|docteurs?|staff))\/[^/?]+/i;
const PERSON_TITLE = /^(?:dr|docteur|pr|professeur)$/;
/** The practice named by its practitioner ("cabinet dentaire du Dr Claire Dupont", "centre des Drs Dupont"). */
const PRACTICE_NAME = /\b(?:cabinet|centre)(?:\s+dentaire)?\s+(?:du|des)\s+(?:dr|drs|docteur|docteurs)\.?(?:\s+[\p{Lu}][\p{L}'-]*){1,3}/giu;
/** Words of a departure, an absence or a closure. */
const LEAVING = /^(?:depart|departs|retraite|quitte|quittent|adieu|au-revoir|conges|absence|absente|absent|fermeture|ferme|fermee|remplacement|remplace|remplacee)$/;
/** A title's parts: "Implant dentaire Lille | Dr Nadia Haddad | Cabinet Petit". */
const TITLE_PARTS = /\s+[|\u2013\u2014\u00b7\u2022]\s+|\s+-\s+|\s+::\s+/;
/**
 * The part of a title its page's headline is about, when the title has several ("Implant dentaire Lille | Dr Nadia
 * Haddad | Cabinet Petit" under the H1 "Implant dentaire"): the others are the site's and its author's names (an SEO
 * title's pattern), not the page's subject; a practitioner named there does not make it their page. The whole title
 * when the headline meets no part, every part ("Dr Nadia Haddad | Implant dentaire" under "Dr Nadia Haddad, implant
 * dentaire": it does not say which is its subject), or parts apart, or there is none.
 */
export function titleSubject(title: string, headline: string): string {
  if (!headline) return title;
  // The parts with their places in the title.
  const parts: { start: number; end: number }[] = [];
  const separator = new RegExp(TITLE_PARTS.source, "g");
  let from = 0;
  for (let m = separator.exec(title); m !== null; m = separator.exec(title)) {
    parts.push({ start: from, end: m.index });
    from = m.index + m[0].length;
  }
  parts.push({ start: from, end: title.length });
  if (parts.length < 2) return title;
  // The parts the headline meets, when they follow one another ("Kits de blanchiment - prudence :: Cabinet Dupont"
  // under "Kits de blanchiment : prudence"; "Dr Marie Lefèvre - Rousseau | Orthodontie" under her name): that run.
  // (Not by "dentaire": the site's name shares it with many a headline, "Cabinet dentaire Dupont".)
  const heading = new Set(keywords(headline).filter((w) => !GENERIC.test(w)).map(stem));
  const meets = parts.map((p) => [...stems(title.slice(p.start, p.end))].some((w) => heading.has(w)));
  const first = meets.indexOf(true);
  const last = meets.lastIndexOf(true);
  if (first === -1 || meets.slice(first, last + 1).includes(false) || (first === 0 && last === parts.length - 1)) return title;
  return title.slice(parts[first].start, parts[last].end);
}

/**
 * The options a question weighs, as stems: the keywords either side of its first "ou"/"or"/"vs", and those listed with
 * commas before ("Implant, bridge ou appareil ?": implant, bridge, appareil); null if none. `between`: the words
 * joining them.
 */
export function optionsOf(names: string[], between = /^(?:ou|or|vs|versus)$/): string[] | null {
  for (const raw of names) {
    // ("Où" asks a place, "ou" joins options: words() folds both to "ou".)
    const name = raw.replace(/(^|[^\p{L}])[oO]\u00f9(?![\p{L}])/gu, "$1 ");
    const w = words(name);
    const at = w.findIndex((x, i) => i > 0 && between.test(x));
    if (at === -1) continue;
    const before = w.slice(0, at).filter((x) => keywords(x).length > 0).at(-1);
    const after = w.slice(at + 1).find((x) => keywords(x).length > 0);
    if (!before || !after) continue;
    // The parts before the joining word, separated by commas, in the part of the name that joins them (a colon or a
    // dash separates the parts: "Implant ou bridge : comment choisir", "Dents ternes : détartrage, aéropolissage ou
    // blanchiment ?").
    const joins = new RegExp(`\\s${between.source.replace(/^\^|\$$/g, "")}\\s`, "i");
    const topic = name.split(/\s*[:?!\u2013\u2014]\s*|\s+-\s+/).find((part) => joins.test(` ${part} `)) ?? "";
    const joining = joins.exec(` ${topic} `);
    // (A part of one or two words, no number: "Après 50 ans, implant ou bridge ?" lists two options, not three.)
    const parts = joining ? ` ${topic} `.slice(0, joining.index).split(",").slice(0, -1) : [];
    const listed = parts.map((part) => words(part).filter((x) => keywords(x).length > 0)).filter((k) => k.length > 0 && k.length <= 2 && !k.some((x) => /\d/.test(x))).map((k) => k.at(-1));
    return [...new Set([...listed.filter((x): x is string => x !== undefined), before, after].map((x) => x.slice(0, 7)))];
  }
  return null;
}

/**
 * A text without the verbs of its reflexive forms ("le cabinet s'équipe", "se soigner"): a verb is not the noun
 * it is spelled like ("l'équipe", the team). The elided "s'" only after a non-letter ("the practice's team" keeps
 * its team).
 */
export function withoutReflexiveVerbs(text: string): string {
  return text.replace(/(^|[^\p{L}])(?:[sS]['\u2019]|[sS]e\s+)\p{L}+/gu, "$1");
}


/**
 * The ways of caring for an anxious patient (hypnosis, conscious sedation, laughing gas, sophrology, relaxation): a
 * page about one of them is about the patients' fear, and goes to the new site's page speaking of that fear (FEAR)
 * when one page alone does (three blind truths send their hypnosis pages to petit's "Notre philosophie": "Avoir peur
 * du dentiste n'a rien de honteux").
 */
const CALMING = /^(?:hypnose|hypnotherapie|hypnotique|sedation|meopa|protoxyde|sophrologie|relaxation)$/;
/**
 * The European Health Insurance Card, in the languages of a practice's foreign patients (the Spanish "Tarjeta Sanitaria
 * Europea", the English "European Health Insurance Card", EHIC; the French "carte européenne d'assurance maladie",
 * CEAM): how a patient from abroad pays and is refunded, the price page's subject. Two blind truths send such a page
 * there (WPML's Spanish "Pacientes con Tarjeta Sanitaria Europea", Polylang's English "International patients"),
 * none elsewhere.
 */
const HEALTH_CARD = /\b(?:tarjeta sanitaria europea|european health insurance cards?|carte europeenne d assurance maladie|ehic|ceam)\b/;
const FEAR = /^(?:peur|peurs|anxieux|anxieuse|anxieuses|anxiete|angoisse|angoisses|phobie|phobique|apprehension|redoute|redoutent)$/;

/**
 * Care for one group of patients (children): a page about it is no page for every patient that names the group in
 * passing. Four blind truths drop their children's care pages rather than send them to "Votre première visite",
 * whose list of what to bring names a child's health record. Applied to the guesses under the bar (a headline's
 * words, a phrase of it): the page must address the group in its own names (title, URL).
 */
const AUDIENCE_WORDS = ["enfant", "enfants", "pedodontie", "pediatrie", "pediatrique", "bebe", "bebes", "adolescent", "adolescents", "adolescence", "ado", "ados"];
const AUDIENCE = new RegExp(`^(?:${AUDIENCE_WORDS.join("|")})$`);
const AUDIENCE_STEMS = new Set(AUDIENCE_WORDS.map(stem));
const addresses = (names: string[]) => names.some((n) => words(n).some((w) => AUDIENCE.test(w)));

const GALLERY = INTENTS.find((i) => i.name === "gallery")!;
const DIRECTIONS = INTENTS.find((i) => i.name === "directions")!;
const PRICES = INTENTS.find((i) => i.name === "prices")!;

/** A photo's page names itself so ("Photo - La salle d'attente"). */
const PHOTO = /^(?:photo|photos|image|images|diapo|diaporama|picture)$/;

/** Words that qualify nothing in a compound ("implants dentaires" is the implants), and the ones linking its words. */
const GENERIC_WORDS = ["dentaire", "dentaires", "dent", "dents"];
const GENERIC = new RegExp(`^(?:${GENERIC_WORDS.join("|")})$`);
const GENERIC_STEMS = new Set(GENERIC_WORDS.map(stem));
/** Whether two sets of stems share one that is not GENERIC's. */
const sharesSpecific = (a: Set<string>, b: Set<string>): boolean => [...a].some((w) => b.has(w) && !GENERIC_STEMS.has(w));
/**
 * The text score backing a match of a URL or a title by GENERIC words alone: measured on the blind truths, the right
 * ones ("Dents jaunes : les causes", the whiter teeth's page) have 0.13 and up, the wrong ones 0.11 and under.
 */
const GENERIC_TEXT = 0.12;
const LINK = /^(?:de|du|des|d|l|la|le|les|au|aux|a|en)$/;

/**
 * Each word of the names and the word it is qualified by, as stems: the next word, across linking words only
 * and within a clause ("greffe de gencive": greffe gencive; "orthodontie de l'enfant"; "tabac et gencives : un
 * duo" has none).
 */
function pairsOf(names: string[]): Map<string, Set<string>> {
  const pairs = new Map<string, Set<string>>();
  for (const clause of names.flatMap((n) => n.split(/[,:;!?()|.\u2013\u2014]|\s-\s/))) {
    const w = words(clause).filter((x) => !GENERIC.test(x));
    for (let i = 0; i + 1 < w.length; i++) {
      if (keywords(w[i]).length === 0) continue;
      let j = i + 1;
      while (j < w.length && LINK.test(w[j])) j++;
      if (j < w.length && keywords(w[j]).length > 0) pairs.set(stem(w[i]), (pairs.get(stem(w[i])) ?? new Set()).add(stem(w[j])));
    }
  }
  return pairs;
}

/**
 * The head word a new page's title shares with an old page when it is the only word they share, and the old
 * page's names follow it by another word than the title does ("La greffe de gencive" for "Greffe osseuse et
 * sinus lift"), the title's own word nowhere in the old names: two compounds of one word. Null otherwise.
 */
export function compoundClash(title: Map<string, Set<string>>, titleWords: Set<string>, own: Map<string, Set<string>>, oldWords: Set<string>, unknown?: (word: string) => boolean): string | null {
  const shared = [...titleWords].filter((w) => oldWords.has(w));
  if (shared.length !== 1) return null;
  const head = shared[0];
  // The word only qualifying, in the old names, a subject the new site never speaks of ("Le laser en parodontie",
  // no laser on any page): another subject, one the new site does not offer.
  if (unknown && [...own].some(([h, qs]) => qs.has(head) && unknown(h))) return head;
  const theirs = title.get(head);
  const ours = own.get(head);
  if (!theirs || !ours) {
    // The word joined to another word in each, heading it or qualifying it ("La greffe de gencive", "Des gencives qui
    // saignent" for "Les maladies des gencives"), neither other word in the other's names: two compounds of one word
    // as well. (Not a word of whom a page is for, "Mon enfant suce son pouce" for "L'orthodontie de l'enfant": the
    // child is the subject of both, Umbraco's truth.)
    if (AUDIENCE_STEMS.has(head) || head === stem("adulte")) return null;
    const partners = (pairs: Map<string, Set<string>>) => [...(pairs.get(head) ?? []), ...[...pairs].filter(([, qs]) => qs.has(head)).map(([h]) => h)];
    const [theirWords, ourWords] = [partners(title), partners(own)];
    return theirWords.length > 0 && ourWords.length > 0 && theirWords.every((w) => !oldWords.has(w)) && ourWords.some((w) => !titleWords.has(w)) ? head : null;
  }
  const clash = [...theirs].every((q) => !oldWords.has(q)) && [...ours].some((q) => !titleWords.has(q));
  return clash ? head : null;
}

/** The text score from which a detail page's text, twice as close as its hub's, says the page is about that detail. */
const DETAIL_TEXT = 0.3;
/** How much closer than the hub's a detail page's text must be for a page whose names name neither. */
const DETAIL_LEAD = 1.3;

/** A question between options: what a need page answers. */
const COMPARISON = /\b(?:ou|vs|versus|choisir|comparer|comparatif|difference|differences|alternative|alternatives)\b/;

export function createMatcher(pages: NewPage[], options: { platform?: Platform | null; threshold?: number } = {}) {
  const platform = options.platform ?? null;
  const threshold = options.threshold ?? MIN_CONFIDENCE;
  const candidates = pages.filter((p) => p.kind !== "home");
  const home = pages.find((p) => p.kind === "home");
  const teamPage = pages.find((p) => p.kind === "team" && !pages.some((o) => o !== p && o.kind === "team" && p.path.startsWith(o.path)));
  const jobsPage = pages.find((p) => p.kind === "jobs" && !pages.some((o) => o !== p && o.kind === "jobs" && p.path.startsWith(o.path)));
  const isMember = (p: NewPage) => p.kind === "team" && p !== teamPage;
  const isOffer = (p: NewPage) => p.kind === "jobs" && p !== jobsPage;
  /** A page that may be an old page's subject: not a person's, an offer's, the team's or the jobs' page. */
  const isSubjectPage = (p: NewPage) => !isMember(p) && !isOffer(p) && p !== teamPage && p !== jobsPage;
  /** The pages speaking of the patients' fear (CALMING's target when there is one alone). */
  const fearPages = candidates.filter((p) => isSubjectPage(p) && words(`${p.title} ${p.text}`).some((w) => FEAR.test(w)));
  /** The jobs the new site offers (its offers' titles, ROLES). */
  // (And those its jobs page says it keeps looking for, in a sentence of a search: "recherche régulièrement des
  // praticiens et des assistantes"; not "le Dr Petit, chirurgien-dentiste, n'a aucun poste ouvert".)
  const seeking = (jobsPage?.text ?? "").split(/[.!?\n]+/).filter((sentence) => words(sentence).some((w) => SEEK.test(w) || /^recru/.test(w)));
  /** The pages named for prices (by the prices intent's words, in their slug or title: `/nos-tarifs/`, "Honoraires"). */
  const pricesNamed = candidates.map((p) => PRICES.page(p) || words(`${p.slug.replace(/-/g, " ")} ${p.title}`).some((w) => PRICES.words.test(w)));
  const offeredRoles = rolesOf([...pages.filter(isOffer).map((p) => `${p.title} ${p.slug.replace(/-/g, " ")}`), ...seeking]);
  const docs = candidates.map((p) => keywords(withoutReflexiveVerbs(p.text)).map(stem));
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of new Set(doc)) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string) => Math.log((1 + candidates.length) / (1 + (df.get(term) ?? 0))) + 1;
  const vector = (terms: string[]) => {
    const v = new Map<string, number>();
    for (const t of terms) v.set(t, (v.get(t) ?? 0) + 1);
    for (const [t, n] of v) v.set(t, n * idf(t));
    return v;
  };
  const cosine = (a: Map<string, number>, b: Map<string, number>) => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (const [t, x] of a) {
      na += x * x;
      dot += x * (b.get(t) ?? 0);
    }
    for (const x of b.values()) nb += x * x;
    return na && nb ? dot / Math.sqrt(na * nb) : 0;
  };
  const vectors = docs.map(vector);
  const slugSets = candidates.map((p) => stems(p.slug.replace(/-/g, " ")));
  const textStems = candidates.map((p) => stems(`${p.title} ${withoutReflexiveVerbs(p.text)}`));
  /** The ways each need page weighs (waysOf), in the singular. */
  const waySets = candidates.map(waysOf);
  /** The words of the items each page presents by title (its cards), in the singular, the generic ones left out. */
  const cardSets = candidates.map((p) => new Set((p.cards ?? []).flatMap((t) => keywords(t)).filter((w) => !GENERIC.test(w)).map((w) => singular(stem(w)))));
  const titleSets = candidates.map((p) => stems(p.title));
  /** Each card's title (cards), as cardSets reads it: its words but the generic ones, in the singular. */
  const cardTitleSets = candidates.map((p) => (p.kind === "home" ? [] : (p.cards ?? []).map((t) => new Set(keywords(t).filter((w) => !GENERIC.test(w)).map((w) => singular(stem(w))))).filter((set) => set.size > 0)));
  /**
   * The one page presenting by a card an item the page's own names (title, H1, headline, URL's last segment) name by
   * the card's whole title, no page titled or named by its URL for that item (every word of the card's title); not a
   * care page naming routine care beside it. Null otherwise.
   */
  const cardNamed = (old: OldPage): NewPage | null => {
    const last = words(lastSegment(old.path)).join(" ");
    const own = new Set([old.title, old.h1, old.headline ?? "", last].flatMap((n) => keywords(n)).filter((w) => !GENERIC.test(w) && !ANNOUNCEMENT_WORDS.test(w)).map((w) => singular(stem(w))));
    if (CARE_SECTION.test(old.path) && [...own].some((w) => ROUTINE_STEMS.has(w))) return null;
    // (Nor a question weighing the item against others, "Dents ternes : détartrage, aéropolissage ou blanchiment ?": the
    // need page weighing them, Drupal 10's truth.)
    if ([old.title, old.h1].some((n) => COMPARISON.test(words(n).join(" ")) && /\?|\bou\b/.test(n.toLowerCase()))) return null;
    const items = candidates.flatMap((p, i) => cardTitleSets[i].filter((card) => [...card].every((w) => own.has(w))).map((card) => ({ p, card })));
    const holders = new Set(items.map((x) => x.p));
    if (holders.size !== 1) return null;
    const titled = items.some(({ p, card }) => candidates.some((o, i) => o !== p && [...card].every((w) => [...titleSets[i], ...slugSets[i]].some((t) => singular(t) === w))));
    return titled ? null : items[0].p;
  };
  // A title without its parenthesis ("Le bridge complet sur implants (All-on-4)"): its name, the aside left out.
  const mainTitleSets = candidates.map((p) => stems(p.title.replace(/\([^)]*\)/g, " ")));
  /** The condition each page's title and slug name (conditionNames), once for every old page. */
  const conditionSets = candidates.map(conditionNames);
  /** A page of the new site titled for brushing or hygiene (none on the demo's sites): where brushing advice would go. */
  const hygienePage = candidates.some((p) => words(`${p.title} ${p.slug.replace(/-/g, " ")}`).some((w) => BRUSHING.test(w) || /^hygiene$/.test(w)));
  /** The need pages whose text speaks of stained teeth (the whiter teeth's). */
  const stainPages = candidates.filter((p) => p.kind === "need" && words(p.text).some((w) => STAINS.test(w)));
  /** The need pages whose text speaks of a scaling and of a polishing (the whiter teeth's). */
  const polishingPages = candidates.filter((p) => p.kind === "need" && words(p.text).some((w) => SCALING.test(w)) && words(p.text).some((w) => POLISHING.test(w)));
  /**
   * The periodontics hub (a treatment's hub titled by the field), where no page of the new site is titled for a gum graft:
   * gumGraft's.
   */
  const periodonticsHubs = candidates.some((p) => gumGraft([words(p.title)]))
    ? []
    : candidates.filter((p) => p.kind === "service_hub" && words(p.title).some((w) => PERIODONTICS.test(w)));
  /** The treatment pages titled for the aligners ("Les aligneurs invisibles"): alignersTopic's. */
  const alignerPages = candidates.filter((p) => TREATMENT_KINDS.has(p.kind) && words(p.title).some((w) => ALIGNERS.test(w)));
  // The name of a team member without a title ("Dr", "Docteur"): all of it must be in the old page's names.
  const memberNames = candidates.map((p) => (isMember(p) ? new Set([...stems(p.title)].filter((w) => !/^(?:dr|docteur|pr|mme|mr|m)$/.test(w))) : null));
  const titlePairs = candidates.map((p) => pairsOf([p.title.replace(/\([^)]*\)/g, " ")]));
  // Every word of the new site (titles, slugs, texts), as stems.
  const siteWords = new Set(candidates.flatMap((p, i) => [...textStems[i], ...slugSets[i]]));
  const textPairs = candidates.map((p) => pairsOf([p.title, withoutReflexiveVerbs(p.text)]));
  // A member's first name, when no other member has it: a welcome post or an old page may name them by it alone
  // ("Bienvenue à Sarah").
  const firstNames = candidates.map((p) => (isMember(p) ? (words(p.title).find((w) => !/^(?:dr|docteur|pr|mme|mr|m)$/.test(w)) ?? null) : null));
  const uniqueFirst = firstNames.map((f) => (f !== null && firstNames.filter((g) => g === f).length === 1 ? f : null));
  // A member's surname, when no other member has it: a post may name them by it after their title ("Réservez en ligne
  // avec le Dr Moreau"). (Not the Dupont brothers': "le Dr Dupont" names either.)
  const surnames = candidates.map((p) => (isMember(p) ? (words(p.title).filter((w) => !/^(?:dr|docteur|pr|mme|mr|m)$/.test(w)).at(-1) ?? null) : null));
  const uniqueSurname = surnames.map((f, i) => (f !== null && f !== firstNames[i] && surnames.filter((g) => g === f).length === 1 ? f : null));
  // What a page is about in short words (its title, slug and text), for documents named by a few words.
  const shortTexts = candidates.map((p) => shorts(`${p.title} ${p.slug.replace(/-/g, " ")} ${withoutReflexiveVerbs(p.text)}`));
  const shortDf = new Map<string, number>();
  for (const set of shortTexts) for (const w of set) shortDf.set(w, (shortDf.get(w) ?? 0) + 1);

  /**
   * The intent a URL or a name states; `others` (headlines, links' texts) never state an ownNameOnly intent.
   * `service`: a set of words stating it named the service itself (its fallbackWords), so the fallback page may
   * stand in for its page.
   */
  const intentOf = (path: string, names: string[], others: string[] = []): { intent: Intent; service: boolean } | null => {
    const q = path.indexOf("?");
    const queryWords = q === -1 ? [] : path.slice(q + 1).split("&").flatMap((p) => words(p.split("=")[1] ?? ""));
    // The last segment with the query's values, the first segment alone (`/booking-calendar/bilan`), each name.
    const segments = path.split("?")[0].split("/").filter(Boolean);
    const first = segments.length > 1 ? [keywords(segments[0])] : [];
    const found: { intent: Intent; service: boolean }[] = [];
    // Each set of words and whether it is the page's own whole name (its URL's last segment, a whole title or H1).
    const sets: [string[], boolean][] = [
      [[...urlWords(path), ...queryWords], true],
      ...first.map((f): [string[], boolean] => [f, false]),
      ...names.flatMap((n) => topicsOf(n).map((t, i): [string[], boolean] => [t, i === 0])),
      ...others.flatMap(topicsOf).map((t): [string[], boolean] => [t, false]),
    ];
    for (const [set, ownWhole] of sets) {
      const meaningful = set.filter((w) => w.length > 1 && !/^\d+$/.test(w) && !/^(?:le|la|les|de|du|des|un|une|et|a|l|d|html?|php|index)$/.test(w));
      if (meaningful.length === 0) continue;
      // (At most four words, counted as a URL's are, without the words every name has: a title's "Prenez rendez-vous
      // en ligne" is `/prenez-rendez-vous-en-ligne`'s three, not five. DotNetNuke's news items carry no words in their
      // URLs, `/ItemId/18/Default.aspx`, their titles alone say it; IONOS's, SPIP's, Google Sites' truths send such
      // pages, named by their URLs, to the contact page.)
      const intent = keywords(meaningful.join(" ")).length > 4 ? undefined : INTENTS.find((i) => (ownWhole || !i.ownNameOnly) && meaningful.some((w) => i.words.test(w) && !FILLER.test(w)) && meaningful.every((w) => i.words.test(w) || FILLER.test(w) || i.context?.test(w)) && (i.needs ?? []).every((kind) => meaningful.some((w) => kind.test(w))));
      if (intent) found.push({ intent, service: !intent.fallbackWords || meaningful.some((w) => intent.fallbackWords!.test(w)) });
      else if (ownWhole && [announcesHours, announcesAccess].some((announces) => announces(set.filter((w) => !/^(?:html?|php|index)$/.test(w))))) found.push({ intent: DIRECTIONS, service: true });
    }
    // Booking is what the visitor came to do, whatever the slot is for (`/booking-calendar/urgence-dentaire`).
    const chosen = found.find((f) => f.intent.name === "booking")?.intent ?? found[0]?.intent;
    return chosen ? { intent: chosen, service: found.some((f) => f.intent === chosen && f.service) } : null;
  };

  /** Whether the URL's last segment or a name says only `what` (with fillers): `/le-cabinet`, "Nos soins". */
  const namedOnlyBy = (what: RegExp, path: string, names: string[]): boolean =>
    [urlWords(path), ...names.map((n) => words(withoutReflexiveVerbs(n)))].some((set) => {
      const meaningful = set.filter((w) => w.length > 1 && !/^\d+$/.test(w) && !/^(?:le|la|les|de|du|des|notre|nos|our|the|html?|php|index)$/.test(w));
      return meaningful.length > 0 && meaningful.length <= 4 && meaningful.some((w) => what.test(w)) && meaningful.every((w) => what.test(w) || FILLER.test(w));
    });
  const aboutThePractice = (path: string, names: string[]) => namedOnlyBy(ABOUT, path, names);
  const presentation = candidates.find((p) => p.kind === "cabinet");

  /**
   * Whether a gallery's album shows the equipment: its own names or text (a photo's caption), or the text of an album
   * it belongs to (itself, a page at its path without the query, its folder's page) whose URL or title names a
   * gallery, names some (EQUIPMENT).
   */
  const showsEquipment = (old: OldPage): boolean => {
    const albums = (old.albums ?? []).filter((a) => [...slugWords(a.path), ...words(a.title)].some((w) => GALLERY.words.test(w)));
    return [old.title, old.h1, old.text, ...albums.map((a) => a.text)].some((text) => words(text).some((w) => EQUIPMENT.test(w)));
  };

  /** One photo's page (`/galerie.php?img=3`, "Photo - La salle d'attente"), not its gallery's. */
  const onePhoto = (old: OldPage): boolean =>
    /[?&](?:img|image|photo|pic)=/i.test(old.path) || [old.title, old.h1].some((n) => /^\s*(?:photo|image)\s*(?:[-:|\u2013\u2014]|n°|\d)/i.test(n));

  /** The best new page for an old one; `match` is null when the best guess is not sure enough. */
  const matchPage = (given: OldPage): MatchResult => {
    // Its title's part its headline is about, and its og:title's (a copy of the title, as a rule).
    const heading = given.h1 || given.headline || "";
    // (Its path as its words read, `/l-%C3%A9quipe` as `/l-équipe`; its key by the map's own rule.)
    const old = { ...given, path: readablePath(given.path), title: titleSubject(given.title, heading), names: given.names?.map((n) => titleSubject(n, heading)) };
    const form = normaliseRedirectPath(given.path, platform);
    if (form === "/" && home) return { match: { target: home.path, confidence: 1, by: "home page" }, best: null, runnerUp: 0 };
    // An old URL that is a spelling of a new page's own URL goes there (else it would shadow that page).
    const same = candidates.find((p) => normaliseRedirectPath(p.path, platform) === form);
    if (same) return { match: { target: same.path, confidence: 1, by: "same path" }, best: null, runnerUp: 0 };
    const names = [old.title, old.h1, ...(old.names ?? [])].filter(Boolean);
    if (home && namedOnlyBy(OVERVIEW, old.path, [old.title, old.h1].filter(Boolean))) {
      const hub = candidates.find((p) => OVERVIEW.test(p.slug));
      if (hub) return { match: { target: hub.path, confidence: 0.6, by: "an overview of the treatments" }, best: null, runnerUp: 0 };
      // No page of the new site is its counterpart: a 301 to the home page would be a soft 404 (the issue's own
      // words), and its treatments' pages are redirected one by one. The home page, which lists them, is the guess a
      // consultant may take (listed for review). Thirteen blind truths of the fifteen holding one drop theirs.
      const by = old.headsSection ? "the index of the old site's section of treatments: no page of the new site is its counterpart" : "an overview of the treatments: no page of the new site is its counterpart (the home page lists them)";
      return { match: null, best: { target: home.path, confidence: 0.6, by }, runnerUp: 0 };
    }
    // The practical information page ("Infos pratiques", "Informations utiles"): the address, the hours, how to come;
    // the new site's directions page (eleven of the twelve blind truths holding one send it there; Grav's drops it).
    // ("Infos" with "pratiques" or "utiles", whole: not "Notre pratique"; not the practical information of a
    // treatment's section, `/orthodontie/infos-pratiques`.)
    const practical = [urlWords(old.path), ...[old.title, old.h1].map((n) => words(n))].some(namesPracticalInfo);
    const directions = practical && !sectionHub(old.path) && namedOnlyBy(PRACTICAL, old.path, [old.title, old.h1].filter(Boolean)) ? candidates.find(DIRECTIONS.page) : undefined;
    if (directions) return { match: { target: directions.path, confidence: 0.6, by: "the practical information page: the directions page" }, best: null, runnerUp: 0 };
    // A platform's booking pages (Wix Bookings' `/service-page/...`, `/booking-calendar/...`): booking.
    const statedByName = BOOKING_PATH.test(old.path) ? { intent: INTENTS[0], service: true } : intentOf(old.path, [old.title, old.h1].filter(Boolean), (old.names ?? []).slice(0, 2));
    // (A listing, `/tag/remboursement/`, `/tags/urgences/`, is sent to no intent's page: its posts are redirected one by
    // one. A gallery's listing is still a gallery, which goes nowhere.)
    // (Nor is a site map, whose URL may be its first word alone, `?page=plan` titled "Plan du site": "plan" there is
    // the site's, no map of the way. Five blind truths drop their site maps (Concrete's, IONOS's, Jekyll's, Jimdo's and
    // the hand-made PHP site's); none sends one to the directions.)
    const siteMap = statedByName?.intent === DIRECTIONS && [old.title, old.h1].some((n) => SITE_MAP.test(words(n).join(" ")));
    const stated = (LISTING_URL.test(old.path) && statedByName?.intent.name !== "gallery") || siteMap ? null : statedByName;
    const intent = stated?.intent ?? null;
    const newsPost = NEWS_POST.test(old.path.split("?")[0]);
    // Named "Dr X" by its title or H1; or under the team's section, too.
    const titledPerson = [old.title, old.h1].some((n) => PERSON_TITLE.test(words(n)[0] ?? ""));
    const personallyNamed = TEAM_SECTION.test(old.path) || titledPerson;
    // A person's page: that, or its URL opens on "Dr" (not a post about a doctor).
    const person = !newsPost && (personallyNamed || words(slugWords(old.path).join(" ")).slice(0, 1).some((w) => PERSON_TITLE.test(w)));
    // Members the page's own names name (its title, H1, headline): a URL or a link naming another member is an
    // old copy's or an old menu's (Wix's `/copy-of-dr-x` holding another member's page).
    const ownStems = stems([old.title, old.h1, old.headline ?? ""].join(" "));
    const namedByItself = memberNames.map((m) => m !== null && m.size > 0 && [...m].every((w) => ownStems.has(w)));
    const selfNamed = namedByItself.some(Boolean);
    // The team's index, not a person's page, a news post, or a page naming a member ("L'équipe : Dr X"). In the team's
    // section, a page whose whole name says the team ("Notre équipe", `/equipe/notre-equipe`) is its index.
    if (intent && !(intent.name === "team" && (titledPerson || newsPost || selfNamed))) {
      const fallback = intent.fallback && stated!.service ? intent.fallback : undefined;
      const page = intent.name === "team" ? teamPage : (candidates.find(intent.page) ?? (fallback ? candidates.find(fallback) : undefined));
      if (page && intent.name === "gallery" && !showsEquipment(old)) {
        // No equipment shown: no redirect, the gallery's guess listed for review. (Matched on what it says instead, an
        // album of the rooms found "the page about the practice" by its name and weak guesses by its captions:
        // e-monsite's truth lost three URLs. A treatment's before-and-after photos are left to the review too.)
        return { match: null, best: { target: page.path, confidence: 0.5, by: "an album showing no equipment: no page of the new site shows it" }, runnerUp: 0 };
      }
      if (page && intent.name === "gallery" && !onePhoto(old)) {
        // A gallery or a tour of the premises as a whole, equipment among its photos or not: no page of the new site is
        // its counterpart (sixteen blind truths of seventeen drop theirs; the static site's sends its gallery to the
        // equipment's page). One photo of the equipment goes there (e-monsite's, the static site's).
        return { match: null, best: { target: page.path, confidence: 0.5, by: "a gallery of the premises: no page of the new site is its counterpart" }, runnerUp: 0 };
      }
      if (page && intent.name === "directions" && newsPost && seasonal(old.path, old.title)) {
        // A post of a holiday's hours ("Horaires des fêtes"): gone with its time, as on the scored path below.
        return { match: null, best: { target: page.path, confidence: 0.5, by: "the hours of a holiday or a season" }, runnerUp: 0, review: "the hours of a holiday or a season" };
      }
      if (page && intent.name === "first visit" && childsFirstVisit(old, page)) return childsFirstVisitGuess(page);
      if (page) return { match: { target: page.path, confidence: 0.9, by: `intent: ${intent.name}` }, best: null, runnerUp: 0 };
    }

    // What a treatment costs, asked by the page's own name ("Combien coûte un implant dentaire ?"): the price list, which
    // says it (Webador's truth; Duda's takes it or the treatment's page), not the treatment's page its words meet.
    const costQuestion = [urlWords(old.path), ...[old.title, old.h1].map((n) => words(n))].some((set) => set.some((w, i) => w === "combien" && /^(?:coute|coutent|cout|coutera)$/.test(set[i + 1] ?? "")));
    const priceList = costQuestion ? candidates.find(PRICES.page) : undefined;
    if (priceList) return { match: { target: priceList.path, confidence: 0.6, by: "what a treatment costs, asked by its name: the price list" }, best: null, runnerUp: 0 };
    const slug = new Set(urlWords(old.path).map(stem));
    // (Without its reflexive verbs, as the texts: "Le cabinet s'équipe d'un cone beam" names no team.)
    const nameSets = names.map((n) => stems(withoutReflexiveVerbs(n)));
    const allNames = new Set([...slug, ...nameSets.flatMap((s) => [...s])]);
    // The names without the practice's own name ("Cabinet dentaire du Dr Claire Dupont - Accueil", "Bienvenue au cabinet
    // du Dr Dupont"): a member named only there is named as the practice, not as a person (member pages below).
    const personNames = new Set([...slug, ...names.flatMap((n) => [...stems(withoutReflexiveVerbs(n.replace(PRACTICE_NAME, " ")))])]);
    const text = vector(keywords(withoutReflexiveVerbs(old.text)).map(stem));
    // (Not "mode d'emploi", instructions: "Le premier rendez-vous de votre enfant, mode d'emploi".)
    const ownWordSets = [urlWords(old.path), ...names.map((n) => words(n.replace(HOW_TO, " ")))];
    // A job's word, or a search for someone of a job (statesAJob).
    const job = statesAJob(ownWordSets);
    // The old site's jobs page (`/careers`, `/le-cabinet/recrutement`: its URL says only that): the new site's, never
    // one offer, whichever job it advertised then (two blind truths).
    const jobsIndex = namedOnlyBy(JOB, old.path, []);
    // The jobs its URL and names name, against those the new site's offers name.
    const oldRoles = job ? rolesOf([slugWords(old.path).join(" "), ...names]) : new Set<string>();
    // A post announcing a job, of the time of the new site's offer for that job (dated within OFFER_YEARS before it):
    // that offer, which it announced. An older one, or one that states no date, announced an offer filled since: the
    // jobs page, as below. (Blind truths: posts of 2024 to 2026 to the offer of 2026, eight; of 2019 and 2022, to
    // the jobs page, three; one of 2022 to the offer.)
    // (Not a listing of such posts, `/blog/tag/recrutement/`; not one dated after the offer, which it cannot announce.)
    const postOffer = job && newsPost && !jobsIndex && !LISTING_URL.test(old.path) ? offerFor([...slugWords(old.path), ...names.flatMap((n) => words(n))]) : null;
    const postBefore = postOffer && yearsBefore(publishedYear(old), postOffer);
    const announced = postOffer && postBefore !== null && postBefore >= 0 && postBefore <= OFFER_YEARS ? postOffer : null;
    const question = names.slice(0, 3).some((n) => COMPARISON.test(words(n).join(" ")) && /\?|\bou\b/.test(n.toLowerCase()));
    // The options a question weighs ("implant ou bridge ?": implant, bridge): the words either side of its "ou".
    const options = question ? optionsOf(names.slice(0, 3)) : null;
    // What the page calls itself (not the links to it): its title, H1, headline.
    const ownNames = [old.title, old.h1, old.headline ?? ""].map((n) => words(n));
    // A first name alone names a newcomer in a welcome, not someone leaving or away ("Départ à la retraite du Dr
    // Marie Lefèvre", "Claire en congés"); and "Dr Marie Lefèvre" is a full name, not the member Marie Dubois's.
    const leaving = ownNames.some((n) => n.some((w) => LEAVING.test(w)));
    // The old page's own compounds (its URL's last segment, title, H1, headline): each word and the next one.
    const ownPairs = pairsOf([words(lastSegment(old.path)).join(" "), old.title, old.h1, old.headline ?? ""]);
    // A post or an advice page speaks of its subject through what it warns of or compares ("Kits de blanchiment en
    // ligne : prudence", on whitening: eight blind truths of eight holding a whitening page); a care page naming a
    // means the new site never speaks of offers another care ("Le laser en parodontie": the static site's truth).
    // (PluXml's `?article12` is a post; SPIP's `?article12` any of its pages.)
    const advice = newsPost || /\/conseils?\//.test(old.path) || (platform === "pluxml" && /[?/]article\d+/.test(old.path));
    const textScores: number[] = [];
    const scored = candidates.map((page, i) => {
      // A new title is short, an old one often carries more: half the score is how much of the new title an old name has.
      const title = Math.max(0, ...nameSets.map((set) => (containment(titleSets[i], set) + jaccard(titleSets[i], set)) / 2));
      const scores = { slug: jaccard(slug, slugSets[i]), title, text: cosine(text, vectors[i]) };
      textScores[i] = scores.text;
      let confidence = WEIGHTS.slug * scores.slug + WEIGHTS.title * scores.title + WEIGHTS.text * scores.text;
      let by = (Object.keys(scores) as (keyof typeof scores)[]).filter((k) => scores[k] >= 0.2).join(", ") || "text";
      // A compound name is one subject: "la greffe de gencive" is not "la greffe osseuse". The only word of the
      // title the old page shares heading another compound in its own names: its URL and title say nothing.
      const other = !isMember(page) && compoundClash(titlePairs[i], titleSets[i], ownPairs, allNames, advice ? undefined : (w) => !siteWords.has(w));
      if (other) {
        confidence = WEIGHTS.text * scores.text;
        by = `text (its title's '${other}' in another compound)`;
      }
      // "Dents de sagesse" and "Des dents plus blanches", `/dent-cassee` and `/remplacer-une-dent/`: a URL and a title
      // sharing only "dent" (GENERIC, on every page of a dentist) say nothing unless the text says it too ("Dents
      // jaunes" and the whiter teeth's page: their texts meet).
      else if ((scores.slug > 0 || scores.title > 0) && scores.text < GENERIC_TEXT && !sharesSpecific(slug, slugSets[i]) && !nameSets.some((set) => sharesSpecific(set, titleSets[i]))) {
        confidence = WEIGHTS.text * scores.text;
        by = "text (its URL and names share only 'dent' with this page's)";
      }
      const member = memberNames[i];
      if (member) {
        // A member's page is about that person: only an old page naming them goes there.
        if (member.size && [...member].every((w) => personNames.has(w)) && (!selfNamed || namedByItself[i])) {
          confidence = Math.max(confidence, 0.9);
          by = "member's name";
        } else if (uniqueFirst[i] !== null && !leaving && ownNames.some((n) => n.includes(uniqueFirst[i]!) && !PERSON_TITLE.test(n[n.indexOf(uniqueFirst[i]!) - 1] ?? ""))) {
          confidence = Math.max(confidence, 0.6);
          by = "member's first name";
        } else if (uniqueSurname[i] !== null && !leaving && !urlWords(old.path).some((w) => LEAVING.test(w)) && [urlWords(old.path), words(old.h1), words(old.headline ?? "")].some((n) => n.some((w, k) => w === uniqueSurname[i] && PERSON_TITLE.test(n[k - 1] ?? "")))) {
          // "Dr" and a member's surname (no other member's), in the page's URL or its headline, and no word of a
          // departure: that member (two blind truths: Concrete's and Umbraco's posts of booking online "avec le Dr
          // Moreau"; a former member's "Dr Garnier" names nobody of the new team). Not by its title, which may carry
          // the site's name: "Cabinet du Dr Bernard" names the practice on every page.
          confidence = Math.max(confidence, 0.6);
          by = "member's title and surname";
        } else confidence /= 2;
      } else if (isOffer(page)) {
        if (job && !newsPost && !jobsIndex && containment(titleSets[i], allNames) >= 0.5) {
          confidence = Math.max(confidence, 0.8);
          by = "job offer's title";
        } else if (page === announced) {
          confidence = Math.max(confidence, 0.8);
          by = "a job post of the offer's time, for the job this offer is";
        } else confidence /= 2;
      } else if (page === jobsPage && job && (jobsIndex || oldRoles.size === 0 || offeredRoles.size === 0 || [...oldRoles].some((r) => offeredRoles.has(r)))) {
        // (An offer naming a job the new site offers no more was filled: not the jobs page. See ROLES.)
        confidence = Math.max(confidence, 0.6);
        by = "jobs page";
      } else if (options && options.filter((o) => titleSets[i].has(o)).length === 1) {
        // A page named for one of the options answers no question between them ("à domicile ou au fauteuil ?").
        confidence /= 2;
        by += ", named for one option of the question";
      } else if (options && !pricesNamed[i] && options.filter((o) => textStems[i].has(o)).length >= 2) {
        // A question between options goes to the page that speaks of both: a need page (it compares them) first,
        // then the one its own words match best (a treatment's hub). Not the price list, whose lines name every care
        // billed, the options of any question among them (Drupal 10's "Dents ternes : détartrage, aéropolissage ou
        // blanchiment ?", its truth the whiter teeth's need page).
        confidence = Math.max(confidence, (page.kind === "need" ? 0.6 : 0.4) + confidence / 10);
        by += ", a question between options it speaks of";
      }
      return { target: page.path, confidence: Math.round(confidence * 100) / 100, by };
    });
    // The page about the practice, its text pointing nowhere clearly: the new site's presentation of the practice.
    // Its URL and its title both saying so, a guess its text does not make (a headline's word: "Le travail
    // d'équipe" on the team page) does not overturn them.
    const leading = Math.max(0, ...scored.map((s) => s.confidence));
    const leadingByText = scored.some((s, i) => s.confidence === leading && textScores[i] >= 0.2);
    const saysAbout = aboutThePractice(old.path, [old.title, old.h1, ...(old.names ?? []).slice(0, 2)].filter(Boolean));
    // (Its title whole or its topic before a colon or a dash: "Le centre : une équipe, un projet".)
    const saysItTwice = namedOnlyBy(ABOUT, old.path, []) && namedOnlyBy(ABOUT, "/", [old.title, old.title.split(/\s*:\s+|\s+[-|\u2013\u2014]\s+/)[0]]);
    if (presentation && saysAbout && (leading < MIN_CONFIDENCE || (saysItTwice && !leadingByText))) {
      const i = scored.findIndex((s) => s.target === presentation.path);
      scored[i] = { ...scored[i], confidence: 0.5, by: "the page about the practice: its presentation" };
    }
    // A former member's page (a person's page naming no member of the new team): no redirect, the team page as the
    // guess a consultant may take (listed for review). Nine blind truths of eleven drop it: a redirect to the team
    // page would say the person still works there (decision 0063, amended).
    const teamIndex = teamPage ? scored.findIndex((s) => s.target === teamPage.path) : -1;
    if (person && teamIndex !== -1 && !scored.some((s) => s.by.startsWith("member's"))) {
      const guess = { ...scored[teamIndex], by: "a former member's page: the team page" };
      return { match: null, best: guess, runnerUp: 0, review: "a former member's page" };
    }
    // Equal on their names and words, the page its text matches better first.
    const textOf = new Map(candidates.map((p, i) => [p.path, textScores[i]]));
    scored.sort((a, b) => b.confidence - a.confidence || textOf.get(b.target)! - textOf.get(a.target)!);
    // A hub's page first, but the page names one of its detail pages by all of that page's title (its URL or one
    // of its own names: `/post/orthodontie-adulte-...`, "Un bridge complet sur implants : le témoignage de ..."):
    // the detail page, the more precise one. A name joining subjects ("Orthodontie adulte et enfant") names none.
    const joins = (n: string) => /\s(?:et|ou|and|or|vs|&)\s|,/i.test(` ${n} `);
    const single = [old.title, old.h1, old.headline ?? ""].filter((n) => !joins(n));
    // (Its URL's last segment as lastSegment reads it: PluXml's and Dotclear's in the query.)
    const lastWords = words(lastSegment(old.path)).join(" ");
    const ownAndSlug = new Set([...(joins(lastWords) ? [] : slug), ...single.flatMap((n) => [...stems(n)])]);
    // (In the singular or the plural: a stem is seven letters, "enfants" is not "enfant"'s.)
    const ownSingular = new Set([...ownAndSlug].map(singular));
    /**
     * Puts the guess at `at` first, at the first guess's confidence, saying why (a rule below preferring another page
     * to the best guess by its scores).
     */
    const promote = (at: number, why: string) => {
      const [moved] = scored.splice(at, 1);
      scored.unshift({ ...moved, confidence: scored[0].confidence, by: `${moved.by}, ${why}` });
    };
    const detail = scored[0] ? candidates.findIndex((p, i) => isDetailOf(scored[0].target, p) && mainTitleSets[i].size > 1 && [...mainTitleSets[i]].every((w) => ownSingular.has(singular(w)))) : -1;
    if (detail !== -1) {
      const at = scored.findIndex((s) => s.target === candidates[detail].path);
      promote(at, "the detail page its names name all of");
    }
    // A hub's page first by its names, but its text clearly one detail page's ("Le blanchiment à la maison": the
    // hub "Blanchiment" by its words, the text "Blanchiment ambulatoire"'s, twice as close as the hub's): the detail.
    // When the page's names do not name the hub by its title's words, only by a stem they share ("Les étapes d'un
    // implant", "Couronne sur implant" and the hub "Implantologie"), its text at least as close as the hub's is
    // enough: the names then say the treatment, not the whole field (six blind truths send such pages to the detail).
    if (detail === -1 && scored[0]) {
      const hub = scored[0].target;
      const hubText = textOf.get(hub)!;
      const children = candidates.filter((p) => isDetailOf(hub, p));
      const closest = children.sort((a, b) => textOf.get(b.path)! - textOf.get(a.path)!)[0];
      const text = closest ? textOf.get(closest.path)! : 0;
      const ownWords = new Set([...slugWords(old.path), ...names.flatMap((n) => keywords(n))]);
      const namesHub = keywords(pageAt(hub).title).every((w) => ownWords.has(w) || GENERIC.test(w));
      // The names say the treatment when they hold a word of the detail's title as it is ("implant", not "implants",
      // which an overview of the field says); else its text must be clearly closer (DETAIL_LEAD: "Pas assez d'os pour
      // un implant ?", the bone graft's).
      const namesDetail = closest !== undefined && keywords(closest.title).some((w) => ownWords.has(w) && !GENERIC.test(w));
      if (closest && text >= DETAIL_TEXT && text >= (namesHub ? 2 : namesDetail ? 1 : DETAIL_LEAD) * hubText) {
        const at = scored.findIndex((s) => s.target === closest.path);
        promote(at, "the detail page its text is about");
      }
    }
    // A name joining two subjects ("Tabac et gencives", "Diabète et gencives"): the page whose text speaks of both, not
    // the best guess speaking of one (the gums' need page): the subject is where the two meet (three blind truths of
    // five send tobacco and the gums to the periodontics page, whose text names tobacco; the others split).
    // Only where the guess is named for one of the two (its title or slug) and silent on the other, and the page
    // speaking of both is a treatment's: two groups of patients ("enfants et adolescents") are one audience, and a
    // page named for neither ("Couronnes et bridges", the need page replacing a tooth) already weighs them.
    const joined = optionsOf([lastWords, old.title, old.h1].filter(Boolean), /^(?:et|and)$/);
    // (The options are stems: "adolesc", "dentair".)
    const both = joined && joined.every((w) => !GENERIC_STEMS.has(w) && !AUDIENCE_STEMS.has(w)) ? (p: NewPage) => joined.every((w) => textStems[candidates.indexOf(p)].has(w)) : null;
    const namedForOne = (p: NewPage) => joined!.filter((w) => titleSets[candidates.indexOf(p)].has(w) || slugSets[candidates.indexOf(p)].has(w)).length === 1;
    if (both && scored[0] && !both(pageAt(scored[0].target)) && namedForOne(pageAt(scored[0].target))) {
      const at = scored.findIndex((s) => s.confidence > 0 && TREATMENT_KINDS.has(pageAt(s.target).kind) && both(pageAt(s.target)));
      if (at > 0) {
        promote(at, JOINED);
      }
    }
    /** The treatment's page speaking of both subjects, first, over a guess named for one of them alone (taken below). */
    const jointPage =
      both && scored[0] && scored[0].confidence > 0 && TREATMENT_KINDS.has(pageAt(scored[0].target).kind) && both(pageAt(scored[0].target)) && scored.some((s) => s.target !== scored[0].target && s.confidence > 0 && namedForOne(pageAt(s.target)) && !both(pageAt(s.target)))
        ? scored[0].target
        : null;
    // A hub's page first, but the page is about one age's patients ("À quel âge le premier bilan d'orthodontie ?",
    // "dès 7 ans"; "à 40 ans", "Adultes : il n'est jamais trop tard") and the hub has a detail page for that age (its
    // title names children or adults): that detail (seven blind truths for children, five for adults; where the new
    // site has no such detail, the hub stays).
    // The page's own words (its URL's, its title's, H1's and headline's), in order: the age and lay-name rules read them.
    const ownWordList = [...urlWords(old.path), ...[old.title, old.h1, old.headline ?? ""].flatMap((n) => words(n))];
    const age = ageOf(ownWordList);
    /** The detail page of a hub for the age the page's names say, if the hub has one. */
    const forAgeOf = (hub: string) => (age ? candidates.find((p) => isDetailOf(hub, p) && words(p.title).some((w) => (age === "child" ? AUDIENCE : ADULT).test(w))) : undefined);
    if (scored[0] && candidates.some((p) => isDetailOf(scored[0].target, p))) {
      const forAge = forAgeOf(scored[0].target);
      if (forAge) {
        const at = scored.findIndex((s) => s.target === forAge.path);
        promote(at, "the detail page of the age its names say");
      }
    }
    // A hub's page first, but the page names a disease by its lay name ("Le déchaussement dentaire", "La maladie
    // parodontale": periodontitis, LAY_NAMES) and the hub has a detail page its medical name titles ("Traitement de la
    // parodontite"): that detail (three blind truths: Odoo's, SiteW's, Umbraco's; none sends such a page to the hub).
    // "Les maladies des gencives", every disease of the gums, names none: it stays with the hub (e-monsite's, Joomla's).
    let layHub: string | null = null;
    if (scored[0]) {
      const medical = LAY_NAMES.filter(([lay]) => lay(ownWordList)).map(([, name]) => name);
      const named = medical.length ? candidates.find((p) => isDetailOf(scored[0].target, p) && words(p.title).some((w) => medical.includes(w))) : undefined;
      if (named) {
        layHub = scored[0].target;
        const at = scored.findIndex((s) => s.target === named.path);
        promote(at, "the detail page its lay name names");
      }
    }
    // A hub's page first (its title the field: "Parodontologie"), but the page's own names (its URL's last segment,
    // title, H1, headline) name, by its word as it is, the condition a detail page of that hub is the page of: titled
    // (or slugged) as treating it, whatever the verb ("Le traitement de la parodontite", "Prise en charge de la
    // parodontite", "Soins de la parodontite"), or as the condition alone ("La parodontite", `/parodontologie/parodontite/`).
    // That detail ("La parodontite", "Soigner une parodontite", "Parodontite et diabète"). The hub led by the stem its
    // field's name shares with the condition ("parodon", seven letters, is "parodontologie" and "parodontite"), in the
    // URL and the title, not by its subject. Three blind truths (Notion's, Hostinger's, Textpattern's); SiteW's takes
    // either; every other page so named already reached that detail by its text.
    // The condition named alone must be named in a name joining no subjects, every word of it, as the rule of the
    // detail its names name all of reads them ("Orthodontie adulte et enfant" names no adult's detail): a detail
    // named by its treatment and a qualifier ("L'implant unitaire") is not the page of one on the treatment in general
    // (21 blind truths send "Combien de temps dure un implant ?" to the implants hub).
    // Not where the text is clearly the hub's, twice as close as the detail's ("Gingivite, parodontite : les maladies
    // des gencives", every disease of the gums: e-monsite's truth keeps the hub), the mirror of a page naming the hub,
    // whose text must be twice as close to a detail's to reach it (above); nor where the names hold the hub's title
    // whole ("Parodontologie : traitement de la gingivite et de la parodontite", the old site's page of the field), nor
    // where they weigh options ("Gingivite ou parodontite : quelle différence ?": a page named for one option answers
    // no question between them, above). The hub stays the runner-up at its score, so that the choice between them is
    // shown (an outside review's cases).
    if (scored[0] && layHub === null) {
      const hub = scored[0].target;
      const own = new Set(ownWordList.map(singular));
      const ownSingle = new Set([...(joins(lastWords) ? [] : words(lastWords)), ...single.flatMap((n) => words(n))].map(singular));
      const namesHub = keywords(pageAt(hub).title).every((w) => GENERIC.test(w) || own.has(singular(w)));
      const weighs = optionsOf([lastWords, old.title, old.h1, old.headline ?? ""].filter(Boolean)) !== null;
      const treating = namesHub || weighs ? [] : candidates.filter((p, i) => isDetailOf(hub, p) && conditionSets[i].some((c) => c.words.every((w) => (c.treats ? own : ownSingle).has(singular(w)))));
      if (treating.length === 1 && textOf.get(treating[0].path)! * 2 >= textOf.get(hub)!) {
        const at = scored.findIndex((s) => s.target === treating[0].path);
        promote(at, "the detail page treating the condition its names name");
      }
    }
    // A page in the old site's section of one treatment (`/soins/implants/remplacer-une-dent`), its best guess a need
    // page (which weighs every way of meeting the need): the page said how the practice meets it, the section's
    // treatment. The detail page of that treatment's hub its text is closest to, when that text is close (three blind
    // truths of four; the fourth takes either).
    if (scored[0] && pageAt(scored[0].target).kind === "need") {
      const hub = sectionHub(old.path);
      const closest = hub ? candidates.filter((p) => isDetailOf(hub.path, p)).sort((a, b) => textOf.get(b.path)! - textOf.get(a.path)!)[0] : undefined;
      if (closest && textOf.get(closest.path)! >= DETAIL_TEXT && textOf.get(closest.path)! >= textOf.get(scored[0].target)! / DETAIL_LEAD) {
        const at = scored.findIndex((s) => s.target === closest.path);
        promote(at, "the detail page of its section's treatment");
      }
    }
    const best = scored[0] ?? null;
    // (Not the hub a lay name's detail page was chosen over, above: the detail is that hub's subject, named. A named
    // condition's hub stays: its field's name may be what the page is about.)
    const runnerUp = scored.find((s) => s.target !== best?.target && s.target !== layHub)?.confidence ?? 0;
    /** Whether one of the page's own names (its URL's last segment, its title, H1, headline) says what `says` reads. */
    const ownNameSays = (says: (set: string[]) => boolean) => [urlWords(old.path), ...ownNames].some((set) => set.length > 0 && says(set));
    /** A class rule's page taken: at the best guess's confidence, or that page's own score if higher. */
    const sentTo = (page: NewPage, by: string): MatchResult => {
      const match = { target: page.path, confidence: Math.max(best?.confidence ?? 0, scored.find((s) => s.target === page.path)?.confidence ?? 0), by };
      return { match, best: match, runnerUp };
    };
    // Pages no page of the new site is the counterpart of, whatever their words meet: no redirect, the best guess
    // listed for review. The old site announcing itself (announcesWebsite), the patients' reviews (aboutReviews),
    // brushing advice where no page of the new site is titled for brushing or hygiene (aboutBrushing).
    if (best && ownNameSays(announcesWebsite)) return { match: null, best, runnerUp, review: "the old site announcing itself" };
    if (best && ownNameSays(aboutReviews)) return { match: null, best, runnerUp, review: "the patients' reviews: no page of the new site holds them" };
    if (best && !hygienePage && ownNameSays(aboutBrushing)) return { match: null, best, runnerUp, review: "brushing advice: no page of the new site gives it" };
    // A care page (in the old site's section of treatments) named by a scaling and a polishing together ("Détartrage et
    // aéropolissage", "Détartrage et polissage"): the stains of tea, coffee and tobacco it removes, the need page whose
    // text speaks of both (the whiter teeth: "un détartrage et un polissage suffisent"). Three blind truths send such a
    // care page there (Webflow, Webador; MODX's takes it or periodontics), none elsewhere; a scaling alone is routine
    // care, which most truths drop. Not a post about the polishing ("L'aéropolissage à chaque détartrage", WPML's: the
    // equipment's page, which presents it by a card; Webself's care page outside a section goes there too, as its truth
    // allows).
    const polishPage = polishingPages.length === 1 && CARE_SECTION.test(old.path) && [urlWords(old.path), ...[old.title, old.h1].map((n) => words(n))].some((set) => set.some((w) => SCALING.test(w)) && set.some((w) => POLISHING.test(w))) ? polishingPages[0] : undefined;
    if (best && best.confidence > 0 && polishPage) return sentTo(polishPage, "a scaling and a polishing: the need page speaking of both");
    // The page speaking of both subjects a name joins, first (by the rule above or by its scores) over a page named for
    // one of them and silent on the other: taken under the bar too, as the page a class rule names (listed for review).
    // Odoo's "Tabac et gencives : le mauvais ménage" and Hostinger's "Tabac, diabète et gencives" were left unmatched
    // with the periodontics hub as their guess, where ten other blind truths send their tobacco or diabetes and gums
    // posts (Concrete, Craft, ExpressionEngine, Kirby, PluXml, SiteW, Solocal, Webador, Ghost and e-monsite, right by
    // their scores or the rule above); none sends one elsewhere.
    if (best && best.confidence > 0 && jointPage === best.target) {
      const match = { ...best, by: best.by.includes(JOINED) ? best.by : `${best.by}, ${JOINED}` };
      return { match, best: match, runnerUp };
    }
    // A care page or a post its own names say is on a gum graft ("La greffe de gencive", "Greffe gingivale"), where no
    // page of the new site is titled for one: the periodontics hub, the field that surgery is of. Two blind truths send
    // such a page there (Joomla 3's `/index.php/soins/greffe-de-gencive`, e-monsite's `/pages/soins/greffe-de-gencive.html`;
    // Concrete's, in a periodontics section, agrees), none elsewhere; their weak guess was the bleeding gums' need page, a
    // compound of the same word. Not a bone graft ("greffe osseuse"): where no page is titled for it the truths split
    // (eight to the implants' hub, Solocal's and Webself's dropped).
    const graftHub = periodonticsHubs.length === 1 && gumGraft([urlWords(old.path), ...[old.title, old.h1].map((n) => words(n))]) ? periodonticsHubs[0] : undefined;
    if (best && best.confidence > 0 && graftHub) return sentTo(graftHub, "a gum graft, no page titled for it: the periodontics hub");
    // A name whose topic, before its colon, is the aligners alone ("Aligneurs : les bons gestes au quotidien",
    // "Invisalign : combien d'heures porter ses gouttières ?"): the one treatment page titled for them, whatever need or
    // age the rest of the name asks about (the need page "Aligner mes dents", the children's detail: decision 0063,
    // amended 2026-11-28). At the best guess's confidence, or that page's own if higher; not where the page's words
    // meet no page at all (a guess of nothing).
    const alignersPage = alignerPages.length === 1 && alignersTopic([old.title, old.h1]) ? alignerPages[0] : undefined;
    if (best && best.confidence > 0 && alignersPage) return sentTo(alignersPage, "its name's topic, the aligners: the page titled for them");
    if (best && childsFirstVisit(old, pageAt(best.target))) return childsFirstVisitGuess(pageAt(best.target));
    // A page for one group of patients (AUDIENCE) and a page whose names do not address it: no weak guess below (nor an item's card)
    // joins them.
    const forGroup = addresses([old.title, old.h1, old.headline ?? "", slugWords(old.path).join(" ")]);
    const answersGroup = (path: string) => !forGroup || addresses([pageAt(path).title, pageAt(path).slug]);
    // A page its own names name by the whole title of an item one page of the new site presents (a card: "Chirurgie
    // guidée", "Aéropolissage" on the page of the equipment), no page titled for that item: that page, whatever the
    // treatment using the item its words meet ("Implants : place à la chirurgie guidée" is the technique's). Blind
    // truths: MODX's and PluXml's guided surgery, PluXml's and WPML's air polishing (Weebly's and Squarespace's take
    // either). Not a care page naming routine care beside it ("Détartrage et aéropolissage": see the rule below).
    const carded = best ? cardNamed(old) : null;
    if (carded && answersGroup(carded.path)) {
      const at = scored.find((s) => s.target === carded.path);
      const match = { target: carded.path, confidence: Math.max(best!.confidence, at?.confidence ?? 0), by: "the whole title of an item that page presents, in its names" };
      return { match, best: match, runnerUp };
    }
    // A post of a holiday's or a season's hours ("Vacances de printemps : nos horaires"): gone with its time, whatever
    // page gives the hours now (the rule of the dated notices, redirect-map.ts).
    if (best && newsPost && best.target === candidates.find(DIRECTIONS.page)?.path && seasonal(old.path, old.title)) return { match: null, best, runnerUp, review: "the hours of a holiday or a season" };
    if (best && accepted(best.confidence, runnerUp, threshold)) return { match: best, best, runnerUp };
    // Reworded text, its best guess under the bar the detail page a hub has for adults, whom the page's own names
    // address ("Un appareil dentaire à 40 ans, c'est possible ?" and "Orthodontie de l'adulte"): the words and the age
    // agree, that page (listed for review). Dotclear's and SITE123's truths want it (decision 0063, amended
    // 2026-11-28). Not a child's: a page on children's brushing or a child's first appointment meets the children's
    // orthodontics by its words and its age alone, and four truths drop or send such pages elsewhere.
    const adultDetail = age === "adult" && best && best.confidence > 0 && candidates.some((hub) => forAgeOf(hub.path)?.path === best.target);
    if (best && adultDetail) {
      const match = { ...best, by: `${best.by}, the detail page of the age its names say` };
      return { match, best: match, runnerUp };
    }
    // Stained or yellowed teeth named by the page itself ("Café, thé, tabac : d'où viennent les taches ?", "Dents jaunes :
    // les vraies causes"), its best guess under the bar: the one need page whose text speaks of discoloured teeth (the
    // whiter teeth's: "des dents ternes... des colorations de surface"), listed for review. Seven blind truths send such
    // posts there (GoDaddy, Hugo, Jekyll, Solocal, Webador, Drupal 10; Grav's, which its words missed), none elsewhere.
    // (Not the Pages Jaunes, the directory.)
    const stained = ownNameSays((set) => set.some((w, i) => STAINS.test(w) && set[i - 1] !== "pages"));
    if (best && stained && stainPages.length === 1) return sentTo(stainPages[0], "stained teeth: the need page speaking of them");
    // A way of calming an anxious patient, named by the page itself, and one page of the new site (not a person's,
    // an offer's, the team's or the jobs' page) speaking of the patients' fear: that page (listed for review).
    const calming = [...slugWords(old.path), ...words(old.title), ...words(old.h1)].some((w) => CALMING.test(w));
    if (calming && fearPages.length === 1) {
      const match = { target: fearPages[0].path, confidence: 0.5, by: "a way of calming anxious patients: the page speaking of their fear" };
      return { match, best: match, runnerUp };
    }
    // A page telling a patient from abroad how to pay with the European Health Insurance Card (HEALTH_CARD), in its
    // names or its own text, its best guess under the bar (a page in a language the new site's words do not meet):
    // the price page (listed for review).
    const pricesPage = candidates.find((p) => PRICES.page(p));
    if (pricesPage && HEALTH_CARD.test(words(`${old.title} ${old.h1} ${old.headline ?? ""} ${old.text}`).join(" "))) {
      const match = { target: pricesPage.path, confidence: 0.5, by: "the European Health Insurance Card: how a patient from abroad pays, the price page" };
      return { match, best: match, runnerUp };
    }
    // Reworded text, its best guess under the bar, but a headline naming what only that page of the new site
    // speaks of ("L'anesthésie assistée par ordinateur", on the page presenting the equipment): that page, at the
    // guess's own confidence (listed for review). The headline's words against the text's guess: nothing.
    // (Its own words only, not the links' texts; the name of a practical document's page says what it is for: an
    // attachment page "questionnaire médical" is the questionnaire's.)
    const headline = matchDocument(old.path, [old.title, old.h1, old.headline ?? ""].filter(Boolean), ANNOUNCEMENT_WORDS);
    const named = headline.match?.by.startsWith("intent:") ?? false;
    // A subject no page of the new site speaks of: the topic of its own name ("Parodontologie : soigner les gencives",
    // the part before a colon) has no word the new site uses. No weak guess below stands in for the care the new
    // site does not publish (its words meet a neighbour's text by chance). A name saying what the page is for, an
    // intent, is no guess at its subject (a medical questionnaire's).
    // Every one of its own names (title, H1, headline) must say so: a template's title ("Sans titre") is no subject.
    const topics = [old.title, old.h1, old.headline ?? ""]
      .filter(Boolean)
      .map((n) => keywords(topicsOf(n).at(-1)?.join(" ") ?? "").filter((w) => !ANNOUNCEMENT_WORDS.test(w) && !GENERIC.test(w) && !JOB.test(w)));
    const unknown = topics.length > 0 && topics.every((topic) => topic.length > 0 && topic.every((w) => !siteWords.has(stem(w))));
    if (!named && unknown) return { match: null, best: best && { ...best, by: `${best.by} (its subject, '${topics[0].join(" ")}', is on no page of the new site)` }, runnerUp };
    // The headline's words on a few pages (an equipment on the page of the equipment and on a treatment using it),
    // every one of them on the text's guess, which is clearly ahead: the two agree.
    // A care page of the old site (`/soins/parodontologie`) is another treatment's counterpart only when that page's
    // title or URL names it: a word in passing in its text ("un bilan parodontal" on the adult orthodontics page) is
    // no page of that care (nine wrong guesses of seven sites whose new site publishes no periodontics). A need page
    // weighs every way of meeting the need ("Des dents plus blanches" for veneers): it may stand in.
    const carePage = CARE_SECTION.test(old.path);
    // A care page by its section or its name ("Soins courants", "Soins conservateurs") is never the price list's, whose
    // lines name every care billed; by whichever of the rules below its words reach it.
    // (Named for care when care is its first word: "Payer ses soins en plusieurs fois" is about paying.)
    const careNamed = carePage || ownNames.some((n) => /^soins?$/.test(keywords(n.join(" "))[0] ?? ""));
    const carePrices = (p: NewPage) => careNamed && PRICES.page(p);
    // A page named only by a field of care ("Parodontologie", GoDaddy's `/parodontologie`, Dotclear's
    // `?pages/Parodontologie`) is a care page wherever it sits: a treatment's page its text meets by a word in passing
    // is none of that field's (both truths drop theirs: their new site publishes no periodontics).
    // (Or its topic before a colon is: "Parodontologie : soigner les gencives", the hand-made PHP site's care fiche,
    // Polylang's and TYPO3's care pages of that name, all three dropped by their truths where the new site publishes no
    // periodontics; Solocal's and the static site's go to a periodontics hub, which its name fits.)
    const fieldNamed = namedOnlyBy(CARE_FIELD, old.path, [old.title, old.h1].filter(Boolean).flatMap((n) => [n, n.split(/\s*:\s+/)[0]]));
    const careFits = (path: string) => {
      const i = candidates.findIndex((p) => p.path === path);
      if (carePrices(candidates[i])) return false;
      return !(carePage || fieldNamed) || !TREATMENT_KINDS.has(candidates[i].kind) || [...allNames].some((w) => !GENERIC_STEMS.has(w) && (titleSets[i].has(w) || slugSets[i].has(w)));
    };
    const shared = !headline.match && best !== null && best.confidence > 0 && runnerUp <= CLEAR_MARGIN * best.confidence && headline.scores?.get(best.target) === 1;
    if (shared && !isMember(pageAt(best.target)) && !isOffer(pageAt(best.target)) && answersGroup(best.target) && careFits(best.target)) {
      const match = { ...best, by: "the headline's words, on the text's best guess among others" };
      return { match, best: match, runnerUp };
    }
    if (headline.match && (named || headline.match.target === best?.target) && !isMember(pageAt(headline.match.target)) && !isOffer(pageAt(headline.match.target)) && answersGroup(headline.match.target) && careFits(headline.match.target)) {
      // At a confidence under REVIEW_BELOW: the best guess's own when it agrees (listed for review).
      const match = { ...headline.match, confidence: named ? Math.round(headline.match.confidence * 40) / 100 : best!.confidence, by: named ? headline.match.by.replace(/^intent: the document's name says/, "its name says") : "the headline's words and the text's best guess" };
      return { match, best: match, runnerUp };
    }
    // A phrase of the headline ("la peur du dentiste": two words, linked) in the text of one page of the new site
    // only: the page that speaks of that subject, at the confidence its words give it (listed for review).
    // (Not the team's or the jobs' page, whose members' and offers' words are not its subject; not a photo's page,
    // whose caption names what the photo shows: the page is its gallery's.)
    const photo = [old.title, old.h1, old.headline ?? ""].some((n) => PHOTO.test(words(n)[0] ?? ""));
    const phrases = photo ? new Map<string, Set<string>>() : pairsOf([old.title, old.h1, old.headline ?? ""]);
    // (A care page's phrase, "Soins courants", not on the price list: see careNamed.)
    let holders = candidates.filter((p, i) => isSubjectPage(p) && !carePrices(p) && [...phrases].some(([h, qs]) => !ANNOUNCEMENT_WORDS.test(h) && [...qs].some((q) => !ANNOUNCEMENT_WORDS.test(q) && textPairs[i].get(h)?.has(q))));
    // A hub lists its detail pages' summaries: a phrase on a hub and on one of its details is that detail's ("Gouttières
    // transparentes", on the orthodontics hub and the aligners' page: the aligners').
    const detailHolders = holders.filter((p) => holders.some((h) => h !== p && isDetailOf(h.path, p)));
    if (detailHolders.length === 1 && holders.every((h) => h === detailHolders[0] || isDetailOf(h.path, detailHolders[0]))) holders = detailHolders;
    // A patient's state named by the page (a pregnancy, sensitive teeth: "Enceinte, puis-je aller chez le dentiste ?",
    // "Dents sensibles au froid"), no word of its names in the holder's title or URL: the phrase is that page's in
    // passing (a gum graft's page says a bared root is "sensible au froid"). Every blind truth holding such a page
    // drops it (pregnancy: Google Sites, IONOS, SITE123, Webself; sensitive teeth: IONOS, Jekyll, Odoo, Solocal,
    // Webador); one naming a treatment beside it ("Dents sensibles après un blanchiment") is that treatment's.
    const patientState = [...urlWords(old.path), ...ownNames.flat()].some((w) => PATIENT_STATE.test(w));
    const inPassing = (p: NewPage) => patientState && ![...allNames].some((w) => !GENERIC_STEMS.has(w) && (titleSets[candidates.indexOf(p)].has(w) || slugSets[candidates.indexOf(p)].has(w)));
    if (holders.length === 1 && answersGroup(holders[0].path) && !inPassing(holders[0])) {
      // (A hub with a detail page for the age the page's names say: that detail, as for the best guess above.)
      const forAge = forAgeOf(holders[0].path);
      const at = scored.find((s) => s.target === (forAge ?? holders[0]).path)!;
      const match = { ...at, confidence: scored.find((s) => s.target === holders[0].path)!.confidence, by: `a phrase of its headline, in that page's text only${forAge ? ", the detail page of the age its names say" : ""}` };
      return { match, best: match, runnerUp };
    }
    // A news post announcing a treatment ("Les aligneurs transparents arrivent au cabinet"): its name's words, the
    // announcement's left out, in one page's title only ("Les aligneurs invisibles"), that page (listed for review).
    const announces = [old.title, old.h1, old.headline ?? ""].some((n) => words(n).some((w) => ARRIVAL.test(w) || NOVELTY_WORD.test(w)));
    if (newsPost && announces && !photo) {
      const subject = new Set([old.title, old.h1, old.headline ?? ""].flatMap((n) => keywords(n)).filter((w) => !ANNOUNCEMENT_WORDS.test(w) && !GENERIC.test(w) && !ARRIVAL.test(w)).map(stem));
      // (Not by a compound's clash: an announcement's words are the old site's, "transparents" for "invisibles".)
      const titled = candidates.filter((p, i) => ANNOUNCED_KINDS.has(p.kind) && [...mainTitleSets[i]].some((w) => subject.has(w) && !GENERIC.test(w)));
      const at = titled.length === 1 ? scored.find((s) => s.target === titled[0].path) : undefined;
      if (at && at.confidence > 0 && answersGroup(at.target)) {
        const match = { ...at, by: "its announcement's subject, in that page's title only" };
        return { match, best: match, runnerUp };
      }
    }
    // A care page of the old site naming a way of meeting a need ("Couronnes, bridges et prothèses", "Les facettes"),
    // no treatment page of the new site named for it (its title or URL), and one need page listing it among the ways
    // it weighs (its description: "Implant, bridge ou prothèse amovible : quelle solution pour remplacer une dent ?"):
    // that need page, at the best guess's confidence (listed for review). Its text alone spreads over the treatments
    // it mentions in passing. (The need's own words, "Mes gencives saignent", are its symptom, not a way; routine care,
    // a scaling every patient has each year, is no way of meeting one need: three blind truths of four drop the care
    // page of the scaling where the new site has no periodontics, though "Des dents plus blanches" lists it.)
    if (carePage && best) {
      // (In the singular or the plural: "bridges" is a "bridge".)
      const needs = candidates.filter((p, i) => p.kind === "need" && [...allNames].some((w) => !GENERIC_STEMS.has(w) && !ROUTINE_STEMS.has(w) && !titleSets[i].has(w) && waySets[i].has(singular(w))));
      const ways = needs.length === 1 ? [...allNames].filter((w) => waySets[candidates.indexOf(needs[0])].has(singular(w))) : [];
      // (A treatment page named for it by half its title at least: "Le bridge complet sur implants" is no page of
      // "Couronnes et bridges", the bridges on the neighbouring teeth.)
      const named = (set: Set<string>) => [...set].some((t) => ways.some((w) => singular(t) === singular(w)));
      const namedFor = candidates.some((p, i) => TREATMENT_KINDS.has(p.kind) && (named(titleSets[i]) || named(slugSets[i])) && containment(mainTitleSets[i], allNames) >= 0.5);
      if (needs.length === 1 && !namedFor && answersGroup(needs[0].path)) {
        const match = { target: needs[0].path, confidence: best.confidence, by: `the way of meeting a need its name says, listed by that need's page (${ways.join(", ")})` };
        return { match, best: match, runnerUp };
      }
    }
    // A page about an item one page of the new site presents by its title (a card: "Anesthésie assistée par
    // ordinateur", "Aéropolissage" on the equipment's page), its own names naming it ("L'anesthésie sans la piqûre",
    // "Nouveau : l'aéropolissage"), no page titled for it: that page, at the best guess's confidence (listed for
    // review). Its text alone meets the price list and the treatments that use the item as much. (Not a care page naming
    // routine care beside it, "Détartrage et aéropolissage": its care is the scaling, the item only its means.)
    const own = new Set([old.title, old.h1, old.headline ?? "", lastWords].flatMap((n) => keywords(n)).filter((w) => !GENERIC.test(w) && !ANNOUNCEMENT_WORDS.test(w)).map((w) => singular(stem(w))));
    if (best && !(carePage && [...own].some((w) => ROUTINE_STEMS.has(w)))) {
      // (The home page's cards are its links to the other pages.)
      const holders = candidates.filter((p, i) => p.kind !== "home" && [...cardSets[i]].some((w) => own.has(w)));
      const shared = holders.length === 1 ? [...cardSets[candidates.indexOf(holders[0])]].filter((w) => own.has(w)) : [];
      const titled = candidates.some((p, i) => p !== holders[0] && [...titleSets[i], ...slugSets[i]].some((w) => shared.includes(singular(w))));
      if (holders.length === 1 && !titled && answersGroup(holders[0].path)) {
        const match = { target: holders[0].path, confidence: best.confidence, by: "an item that page presents by its title, its names' subject" };
        return { match, best: match, runnerUp };
      }
    }
    return { match: null, best, runnerUp };
  };
  const pageAt = (path: string) => candidates.find((p) => p.path === path)!;
  /**
   * A child's first visit ("La première visite de votre enfant", "À quel âge la première visite ?"), its guess the new
   * site's first visit, which is every patient's and names no child: six blind truths of eight drop it (the other two
   * take it or the practice's approach). No redirect; that page its guess (listed for review).
   */
  const childsFirstVisit = (old: OldPage, page: NewPage): boolean => {
    if (!FIRST_VISIT_SLUG.test(page.slug) || addresses([page.title, page.slug])) return false;
    // (A child's only: "Première consultation : adultes et enfants" is every patient's first visit.)
    const own = [old.title, old.h1, old.headline ?? "", slugWords(old.path).join(" ")];
    return ageOf(own.flatMap((n) => words(n))) === "child";
  };
  const childsFirstVisitGuess = (page: NewPage): MatchResult => ({
    match: null,
    best: { target: page.path, confidence: 0.5, by: "a child's first visit: the new site's first visit is every patient's" },
    runnerUp: 0,
    review: "a child's first visit",
  });
  /**
   * The hub of treatments (a page with detail pages) the old URL's section names: the segment before its last, a word
   * of which opens the hub's slug or is opened by one of its words (`implants-dentaires`, the hub `implantologie`).
   */
  const sectionHub = (path: string): NewPage | undefined => {
    const segments = path.split("?")[0].split("/").filter(Boolean);
    if (segments.length < 2) return undefined;
    const section = keywords(segments.at(-2)!).filter((w) => !GENERIC.test(w)).map(stem);
    const opens = (a: string, b: string) => Math.min(a.length, b.length) >= 5 && (a.startsWith(b) || b.startsWith(a));
    const named = hubSlugs.filter(({ slug }) => slug.some((w) => section.some((s) => opens(w, s))));
    return named.length === 1 ? named[0].hub : undefined;
  };
  /** A detail page under a hub's URL (not a member's or an offer's: their section is no hub of treatments). */
  const isDetailOf = (hub: string, p: NewPage) => p.path !== hub && p.path.startsWith(hub) && p.kind !== "team" && p.kind !== "jobs";
  /** The hubs of treatments (pages with detail pages) and their slugs' stems, "dent" left out: sectionHub's. */
  const hubSlugs = candidates
    .filter((p) => candidates.some((c) => isDetailOf(p.path, c)))
    .map((hub) => ({ hub, slug: keywords(hub.slug.replace(/-/g, " ")).filter((w) => !GENERIC.test(w)).map(stem) }));

  /**
   * The page a few words are about: most of them (weighted by how rare they are on the new site) on one page
   * only. For a document's name, and for a headline whose page was reworded.
   */
  const bySubject = (named: string[], by: string): MatchResult => {
    const terms = new Set(named.map(short));
    if (terms.size === 0) return { match: null, best: null, runnerUp: 0 };
    const weight = (w: string) => Math.log((1 + candidates.length) / (1 + (shortDf.get(w) ?? 0))) + 0.1;
    const total = [...terms].reduce((sum, w) => sum + weight(w), 0);
    const scored = candidates
      .map((page, i) => ({ target: page.path, confidence: Math.round(([...terms].filter((w) => shortTexts[i].has(w)).reduce((sum, w) => sum + weight(w), 0) / total) * 100) / 100, by }))
      .sort((a, b) => b.confidence - a.confidence);
    const best = scored[0];
    const runnerUp = scored.find((s) => s.target !== best.target)?.confidence ?? 0;
    return { match: best.confidence >= 0.5 && runnerUp <= CLEAR_MARGIN * best.confidence ? best : null, best, runnerUp, scores: new Map(scored.map((s) => [s.target, s.confidence])) };
  };

  /**
   * The offer of the new site for the job words name ("assistante dentaire en CDI", ROLES): the one offer for that
   * job, a contract word choosing among several ("cdi", "alternance"); null for none, or several it cannot tell apart.
   */
  const offerFor = (named: string[]): NewPage | null => {
    const roles = rolesOf([named.join(" ")]);
    if (roles.size === 0) return null;
    // Every job and contract it names is the offer's: "secrétaire-assistante" is not the assistant's offer, nor a
    // summer replacement the collaborator's, nor an apprenticeship or a school placement ("stage") the CDI's (the
    // outside review's counter-examples).
    const contract = named.filter((w) => CONTRACT.test(w));
    const chosen = pages.filter(isOffer).filter((p) => {
      const own = `${p.title} ${p.slug.replace(/-/g, " ")}`;
      const offered = rolesOf([own]);
      const spelled = new Set(words(`${own} ${p.text}`));
      return [...roles].every((r) => offered.has(r)) && contract.every((w) => spelled.has(w));
    });
    return chosen.length === 1 ? chosen[0] : null;
  };
  /**
   * How many years a year is before an offer's publication (null: either unknown); more than OFFER_YEARS is an offer
   * of its time, filled since.
   */
  const yearsBefore = (year: number | null, offer: NewPage): number | null => {
    const offered = Number(offer.published?.slice(0, 4));
    return year === null || !Number.isInteger(offered) || offered === 0 ? null : offered - year;
  };

  /**
   * The offer of the new site a job offer's document is for ("offre-assistant-dentaire-cdi.pdf", "Fiche de poste
   * assistante dentaire"): the offer for the job its name names (offerFor), unless its URL dates it more than
   * OFFER_YEARS before the offer (`/uploads/2018/09/`, `-2016.pdf`). None: the document goes by its words, as before.
   * (Nine blind truths send such a document to the offer for the same job, one of them two years older than the
   * offer; two, of 2016 and 2018 against offers of 2026, drop theirs.)
   */
  const offerOfDocument = (path: string, named: string[]): NewPage | null => {
    if (!namesAJobDocument(named)) return null;
    const offer = offerFor(named);
    const before = offer && yearsBefore(yearInUrl(path), offer);
    return offer && !(before !== null && before > OFFER_YEARS) ? offer : null;
  };

  /** Whether a document's words (file name, links' texts) name a job offer's document: a job's word. */
  const namesAJobDocument = (named: string[]): boolean =>
    // (Not instructions, "mode d'emploi", nor a timetable, "emploi du temps"; not a commercial offer, "offre blanchiment
    // été"; "rejoindre" alone is how to reach the practice as often as its team: "Nous rejoindre : plan d'accès".)
    !(named.includes("mode") || named.includes("temps") || named.some((w) => COMMERCIAL.test(w) || WAYS.test(w))) && named.some((w) => JOB.test(w) && !/^rejoi/.test(w));
  /**
   * The jobs page for a job offer's document (namesAJobDocument) naming a job (ROLES) the new site offers no more and
   * looks for no more, its URL naming no year: a filled offer's, kept on the old site's jobs page ("Offres pourvues").
   * Two blind truths send such a document to the jobs page (Duda's and Grav's secretary's offer, undated), none drops
   * one; a dated one (`offre-secretaire-medicale-2023.pdf`, `/uploads/2018/09/fiche-de-poste...`) goes by its words as
   * before (the truths split: Odoo's, Simplébo's, the static site's and WordPress's dropped, Webself's and Polylang's
   * to the jobs page).
   */
  const filledOfferDocument = (path: string, named: string[]): NewPage | null => {
    if (!jobsPage || yearInUrl(path) !== null || !namesAJobDocument(named)) return null;
    const roles = rolesOf([named.join(" ")]);
    return roles.size > 0 && ![...roles].some((r) => offeredRoles.has(r)) ? jobsPage : null;
  };

  /**
   * A document (a PDF) by its own words: its file name and the texts of the links to it. Its subject is clear
   * when most of those words (weighted by how rare they are on the new site) are on one page only.
   */
  const matchDocument = (path: string, names: string[], ignore?: RegExp): MatchResult => {
    const named = [...slugWords(path), ...names.flatMap((n) => keywords(n))].filter((w) => !DOCUMENT_WORDS.test(w) && !ignore?.test(w));
    const offer = offerOfDocument(path, named);
    if (offer) {
      const match = { target: offer.path, confidence: 0.8, by: "intent: a job offer's document, for the job this offer is" };
      return { match, best: match, runnerUp: 0 };
    }
    for (const intent of DOCUMENT_INTENTS) {
      const page = named.some((w) => intent.words.test(w)) || intent.phrase?.test(named.join(" ")) ? candidates.find(intent.page) : undefined;
      if (page) {
        const match = { target: page.path, confidence: 0.8, by: `intent: the document's name says ${intent.name}` };
        return { match, best: match, runnerUp: 0 };
      }
    }
    // A brochure of the practice ("plaquette-cabinet-bernard-2016.pdf", "Centre dentaire Martin - plaquette"), naming
    // no care a page of the new site is titled for: no page is its counterpart (eight blind truths hold one, Concrete's,
    // Duda's, Kirby's, MODX's, Simplébo's, Umbraco's, WPML's, the static site's: all drop it). By its other words it
    // went astray: WPML's "plaquette" met the dental plaque ("plaque", in the five letters a document's words are
    // compared by). The practice's presentation its guess, for review. (A treatment's brochure, "Plaquette_Implants",
    // goes by its words.)
    if (named.some((w) => BROCHURE.test(w))) {
      const subject = named.filter((w) => !BROCHURE.test(w) && !/^\d+$/.test(w) && !GENERIC.test(w) && !ABOUT.test(w));
      if (!subject.some((w) => candidates.some((p, i) => CARE_KINDS.has(p.kind) && titleSets[i].has(stem(w))))) {
        const guess = presentation ? { target: presentation.path, confidence: 0.5, by: "a brochure of the practice: no page of the new site is its counterpart" } : null;
        return { match: null, best: guess, runnerUp: 0, review: "a brochure of the practice" };
      }
    }
    const found = bySubject(named, "the document's name");
    // Instructions after a treatment (aftercare) are for the patients treated: a page of the new site about the
    // treatment is not about them. Taken only where a page speaks of aftercare itself, else left for review.
    const guess = found.best ? pageAt(found.best.target) : null;
    if (guess && named.some((w) => AFTERCARE.test(w)) && !AFTERCARE_PAGE.test(`${guess.slug.replace(/-/g, " ")} ${words(guess.title).join(" ")}`)) {
      // Unless the treatment it names is one page's title alone ("Conseils après surfaçage", "Détartrage et surfaçage":
      // four blind truths of four): the patients treated read that page. A treatment several titles name (an
      // implant: the hub and its details) stays for review (blind truths split). That page is a treatment's, whose
      // title holds a word of it in no other compound ("greffe de gencive" is not "Greffe osseuse", "prothèses
      // amovibles" not "Prothèses fixes"); the practice's name ("cabinet Dupont") and a Dr are no treatment.
      const isCare = (w: string) => !AFTERCARE.test(w) && !AFTERCARE_WORDS.test(w) && !GENERIC.test(w) && !ABOUT.test(w) && !PERSON_TITLE.test(w);
      const care = new Set(named.filter(isCare).map(stem));
      // (The compounds of its own name, its file's: a link's text may add words around it, "une séance de surfaçage".)
      const carePairs = pairsOf([slugWords(path.replace(/\.[a-z0-9]{2,4}$/i, "")).filter(isCare).join(" ")]);
      const titled = candidates.filter((p, i) => CARE_KINDS.has(p.kind) && [...care].some((w) => mainTitleSets[i].has(w)) && !compoundClash(titlePairs[i], titleSets[i], carePairs, care));
      if (titled.length === 1) {
        const match = { target: titled[0].path, confidence: 0.5, by: "instructions after the treatment that page's title alone names" };
        return { match, best: match, runnerUp: found.runnerUp };
      }
      return { ...found, match: null, review: "instructions after a treatment: no page of the new site is about aftercare" };
    }
    return found;
  };

  /**
   * Whether a document is a leaflet on an appliance the patient wears ("Entretien des gouttières", "Guide de port des
   * aligneurs", "entretien_appareil_amovible.pdf": APPLIANCE in its file's name or its links' texts) and `target`, where
   * the page linking to it went, is a treatment's page whose title or text names that appliance, or its hub's does (the
   * hub "Orthodontie" names the appliances of its detail "Orthodontie de l'enfant"): the leaflet is for the
   * patients of that treatment, and goes with its page (four blind truths: IONOS's, Kirby's, Webnode's, SiteW's; their
   * names alone point at the treatment's hub, "orthodontie", or nowhere). Not a leaflet for a treatment's aftercare, a
   * consent or an insurer's form (their truths split or drop them): no appliance in their names.
   */
  const applianceLeaflet = (path: string, names: string[], target: string): boolean => {
    const worn = [...slugWords(path), ...names.flatMap((n) => keywords(n))].filter((w) => APPLIANCE.test(w)).map((w) => singular(stem(w)));
    const i = candidates.findIndex((p) => p.path === target);
    if (worn.length === 0 || i === -1 || !CARE_KINDS.has(candidates[i].kind)) return false;
    const naming = candidates.map((p, j) => j).filter((j) => j === i || isDetailOf(candidates[j].path, candidates[i]));
    return naming.some((j) => worn.some((w) => [...textStems[j]].some((t) => singular(t) === w)));
  };

  /**
   * A document's match (a file, not a page's headline read as a document's name): an undated filled offer's goes to the
   * jobs page (filledOfferDocument; a page's job post is judged by the page rules, ROLES), else matchDocument.
   */
  const documentMatch = (path: string, names: string[]): MatchResult => {
    const filled = filledOfferDocument(path, [...slugWords(path), ...names.flatMap((n) => keywords(n))].filter((w) => !DOCUMENT_WORDS.test(w)));
    if (!filled) return matchDocument(path, names);
    const match = { target: filled.path, confidence: 0.6, by: "intent: a filled job's offer, undated, for a job the new site offers no more: the jobs page" };
    return { match, best: match, runnerUp: 0 };
  };
  return Object.assign(matchPage, { document: documentMatch, applianceLeaflet });
}

/**
 * The patients' reviews, by a name made of these words alone ("Avis patients", "L'avis de nos patients", "Témoignages",
 * "Livre d'or", "Ce que disent nos patients", "Ils nous ont fait confiance"): eleven blind truths hold such a page
 * (DotNetNuke, Duda, GoDaddy, IONOS, Jekyll, the hand-made PHP site, Simplébo, SITE123, Solocal, Squarespace, the static
 * site), all drop it; Duda's `/avis` went to the directions by a phrase of its text. A treatment's testimony names the
 * treatment ("Un bridge complet sur implants : le témoignage de Jacques": its page).
 */
const REVIEWS = /^(?:avis|temoignage|temoignages|reviews|testimonials|livre|disent|confiance)$/;
const REVIEWS_CONTEXT = /^(?:patients?|clients?|nos|vos|notre|votre|de|des|du|les|le|la|l|d|or|ce|que|qu|ils|elles|nous|vous|ont|fait|google|en|ligne)$/;
const aboutReviews = (set: string[]): boolean => set.some((w) => REVIEWS.test(w)) && set.every((w) => REVIEWS.test(w) || REVIEWS_CONTEXT.test(w)) && (!set.includes("livre") || set.includes("or"));
/**
 * Brushing advice, by a name made of brushing's words and these alone ("Bien se brosser les dents : la bonne méthode",
 * "Quelle brosse à dents choisir ?", "Brosse électrique ou manuelle ?"): fourteen blind truths hold such a post (Blogger,
 * Concrete, DotNetNuke, Dotclear, Duda, Ghost, GoDaddy, Google Sites, Grav, Hugo, Jekyll, Jimdo, Joomla 4, Solocal), all
 * drop it; Solocal's went to the first visit by a weak guess.
 * Not bleeding on the brush ("Mes gencives saignent au brossage", "Du sang sur la brosse à dents": the need page).
 */
const BRUSHING = /^(?:brosse|brosses|brosser|brossez|brossage|brossages)$/;
const BRUSHING_CONTEXT = /^(?:bien|mal|se|vous|les|des|dents|dent|a|la|le|l|de|du|d|quelle|quel|choisir|choix|sa|son|ses|vos|votre|electrique|electriques|manuelle|manuelles|ou|methode|bonne|bon|bons|gestes|comment|pourquoi|faut|il|combien|fois|par|jour|temps|minutes|conseil|conseils|astuces|quotidien|au)$/;
const aboutBrushing = (set: string[]): boolean => set.some((w) => BRUSHING.test(w)) && set.every((w) => BRUSHING.test(w) || BRUSHING_CONTEXT.test(w) || /^\d+$/.test(w));
/** Stained, yellowed or dull teeth, as words() reads them. */
const STAINS = /^(?:taches?|jaunes?|jaunies?|jaunis|ternes?|colorations?|colorees?)$/;
/** A scaling, and a polishing (its air polishing too), as words() reads them. */
const SCALING = /^detartrages?$/;
const POLISHING = /^(?:aero)?polissages?$/;
/**
 * The aligners by their names (clear trays, Invisalign's brand), and what may qualify them ("transparents", "invisibles").
 * A name whose topic before a colon is made of these alone is about them: Joomla 4's, SITE123's, DotNetNuke's and
 * Ghost's truths send such pages to the aligners' page (four blind truths), none elsewhere.
 */
const ALIGNERS = /^(?:aligneurs?|gouttieres?|invisalign)$/;
const ALIGNERS_QUALIFIERS = /^(?:transparents?|transparentes?|invisibles?|les|des|le|la|l|vos|nos|mes|ses)$/;
const alignersTopic = (names: string[]): boolean =>
  names.some((name) => {
    const [head, ...rest] = name.split(/\s*:\s+/);
    const topic = words(head);
    return rest.length > 0 && topic.some((w) => ALIGNERS.test(w)) && topic.every((w) => ALIGNERS.test(w) || ALIGNERS_QUALIFIERS.test(w));
  });
/** An appliance a patient wears and looks after: aligners, a brace, a removable appliance, a retainer, a denture. */
const APPLIANCE = /^(?:gouttieres?|aligneurs?|invisalign|appareils?|bagues?|contentions?|dentiers?)$/;

/**
 * What a document is for when its name says so: a practical document of the practice's own pages (a map, a
 * price list, a privacy charter, the medical questionnaire to bring to a first visit). Any of its words is
 * enough: a document's name is a few words, and the rest names the practice or a year. Documents about a
 * treatment (consent, aftercare) name no such page: they go by their words, or to review.
 */
const DOCUMENT_INTENTS: { name: string; words: RegExp; phrase?: RegExp; page: (p: NewPage) => boolean }[] = [
  { name: "directions", words: /^(?:acces|itineraire|localisation|parking|directions)$/, page: (p) => /^(?:acces|plan-acces|venir|nous-trouver|itineraire)/.test(p.slug) },
  { name: "prices", words: /^(?:tarif|tarifs|tarifaire|honoraires|prix|price|prices|pricing)$/, page: (p) => /^(?:tarif|honoraire|prix|price)/.test(p.slug) },
  { name: "privacy", words: /^(?:confidentialite|rgpd|privacy|gdpr)$/, page: (p) => p.kind === "privacy" },
  { name: "legal notice", words: /^(?:mentions|legales|imprint)$/, page: (p) => p.kind === "legal" },
  // (In the languages of a practice's foreign patients too: the Spanish "cuestionario médico", the English "medical
  // history form"; two blind truths, WPML's and Polylang's, send theirs to the first visit as the French one.)
  { name: "first visit", words: /^(?:questionnaire|anamnese|anamnesis|cuestionario)$/, phrase: /\b(?:medical history|historia clinica|historial medico)\b/, page: (p) => FIRST_VISIT_SLUG.test(p.slug) },
];

/** A document of instructions after a treatment ("conseils après extraction", "consignes post-opératoires"). */
const AFTERCARE = /^(?:apres|after|aftercare|postop|postoperatoire|postoperatoires|suites)$/;
const AFTERCARE_PAGE = /\b(?:apres|suites|aftercare|postop|postoperatoire|post)\b/;
/** The kinds of page a treatment has on the new site: its hub, its details, a need page weighing it. */
const CARE_KINDS: ReadonlySet<string> = new Set(["service_hub", "service_detail", "need"]);
/**
 * The ways a need page weighs: the treatments its description's opening list names ("Implant, bridge ou prothèse
 * amovible : ..."). Only treatments (WAYS): that list may name symptoms ("Douleur, dent cassée, abcès : ...") or
 * qualities ("amovible"), which are no ways (the outside review's "Des soins sans douleur", "L'appareil amovible").
 */
function waysOf(page: NewPage): Set<string> {
  const list = page.kind === "need" ? (page.description ?? "").split(/\s*[:?]/)[0] : "";
  return /,|\sou\s/.test(list) ? new Set(words(list).filter((w) => WAYS.test(w)).map((w) => singular(stem(w)))) : new Set();
}
/** A treatment or appliance a need page may weigh as a way of meeting the need (waysOf). */
const WAYS = /^(?:implants?|bridges?|protheses?|dentiers?|couronnes?|facettes?|inlays?|onlays?|blanchiments?|eclaircissements?|aligneurs?|gouttieres?|bagues?|greffes?|surfacages?|contentions?)$/;
/** Routine care, for every patient whatever their need: a scaling, prevention, a check-up. */
const ROUTINE_STEMS: ReadonlySet<string> = new Set(["detartrage", "prevention", "hygiene", "bilan", "controle", "polissage"].map(stem));
/**
 * A disease's lay names and its medical name, as a detail page's title says it: "le déchaussement (dentaire)", "des
 * dents qui se déchaussent" (`deschaussement` misspelled too), "la maladie parodontale" are periodontitis. And the
 * bone a patient lacks for an implant ("Pas assez d'os pour un implant", "Manque d'os et implant", "Quand l'os manque":
 * "os", a word of nothing else) is the bone graft's ("La greffe osseuse"): eight blind truths send such a page to it
 * where the new site has it (GoDaddy, Hugo, Jekyll, Joomla 4, Webflow, Dotclear, Simplébo, SITE123), none to the hub.
 * And a whitening "au cabinet" is the one a detail page calls "au fauteuil" (inOfficeWhitening).
 */
const LAY_NAMES: [(own: string[]) => boolean, string][] = [
  [(own) => own.some((w) => /^des?chauss/.test(w)) || own.some((w, i) => /^maladies?$/.test(w) && /^parodontales?$/.test(own[i + 1] ?? "")), "parodontite"],
  [(own) => own.includes("os"), "osseuse"],
  [inOfficeWhitening, "fauteuil"],
];
/**
 * A name's words saying its page treats what it names ("Le traitement de la parodontite", "Soigner une carie", "Prise
 * en charge de la parodontite", "Soins de la parodontite").
 */
const TREATING = /^(?:traitement|traitements|traiter|soigner|soin|soins|prise|charge)$/;
/** What a page's title or slug names as the condition it is the page of (conditionNames). */
interface Condition {
  /** Its words, as words() spells them ("parodontite"). */
  words: string[];
  /** Whether the name says it treats them ("Le traitement de la parodontite"), or names them alone ("La parodontite"). */
  treats: boolean;
}
/**
 * What a page's title and its slug each name, without a treating word, the dental words or an aside in parentheses
 * ("Le traitement de la parodontite", `traitement-parodontite`, "La parodontite": parodontite; "L'implant unitaire":
 * implant and unitaire, both to be named).
 */
function conditionNames(p: NewPage): Condition[] {
  return [p.title.replace(/\([^)]*\)/g, " "), p.slug.replace(/-/g, " ")].flatMap((name) => {
    const list = keywords(name).filter((w) => !GENERIC.test(w));
    const condition = list.filter((w) => !TREATING.test(w));
    return condition.length > 0 ? [{ words: condition, treats: condition.length < list.length }] : [];
  });
}
/** Why a page speaking of both subjects its name joins was taken. */
const JOINED = "the page speaking of both subjects its name joins";
/** A graft, and the gums' words: a gum graft (gumGraft). */
const GRAFT = /^greffes?$/;
const GUM = /^(?:gencives?|gingivales?|gingival|gingivaux)$/;
/** The field of the gums, as a hub's title says it. */
const PERIODONTICS = /^(?:parodontologie|parodontie)$/;
/** Whether one of these names (each a list of words) says a gum graft: a graft and the gums in the same name. */
export function gumGraft(names: readonly (readonly string[])[]): boolean {
  return names.some((set) => set.some((w) => GRAFT.test(w)) && set.some((w) => GUM.test(w)));
}
/** A whitening, by either of its names. */
const WHITENING = /^(?:blanchiments?|eclaircissements?)$/;
/** The words of a whitening done at home, or of a choice between ways: no in-office whitening alone. */
const HOME_OR_CHOICE = /^(?:ou|or|vs|versus|maison|domicile|ambulatoire|ambulatoires|gouttieres?|choisir|comparer)$/;
/**
 * A whitening "au cabinet" (`en cabinet`) is the in-office whitening, which a detail page calls "au fauteuil" ("Le
 * blanchiment au cabinet", "Blanchiment : la séance au cabinet", "Nouveau : le blanchiment au cabinet"): the two names
 * of one treatment, against the whitening at home. Two blind truths send such pages to the chair-side detail
 * (ProcessWire's care page and post, Grav's session "au cabinet"), none to the hub. Not a name weighing both ways ("Le
 * blanchiment au cabinet ou à la maison ?", Hugo's: the hub) nor one naming the practice only ("Cabinet du Dr X").
 */
export function inOfficeWhitening(own: readonly string[]): boolean {
  return own.some((w) => WHITENING.test(w)) && own.some((w, i) => (w === "au" || w === "en") && own[i + 1] === "cabinet") && !own.some((w) => HOME_OR_CHOICE.test(w));
}
/** A treatment's pages: its hub and its details. */
const TREATMENT_KINDS: ReadonlySet<string> = new Set(["service_hub", "service_detail"]);
/** The words of an aftercare leaflet's name beside its treatment's ("Conseils après la pose d'un implant"). */
const AFTERCARE_WORDS = /^(?:conseil|conseils|consigne|consignes|recommandation|recommandations|instruction|instructions|fiche|pose|soin|soins|traitement|intervention|operatoire|operatoires)$/;

/** How many years before a job's offer a document for the same job may be dated and still be that offer's. */
const OFFER_YEARS = 3;
/** A contract's words, as an offer spells them (`assistante-dentaire-cdi`, "en alternance", "stage de 3e"). */
const CONTRACT = /^(?:cdi|cdd|alternance|apprentissage|apprenti|apprentie|professionnalisation|stage|stagiaire|interim|liberal|liberale|collaboration|remplacement)$/;

/** A brochure, a leaflet presenting the practice or a care. */
const BROCHURE = /^(?:plaquette|plaquettes|brochure|brochures|depliant|depliants)$/;
/** A document's words that say nothing of its subject. */
const DOCUMENT_WORDS = /^(?:telecharger|telechargez|pdf|doc|docx|document|documents|fichier|version|imprimable|imprimer|cliquez|ici|voir|lire|format|ko|mo)$/;

/**
 * A headline's words that announce rather than name its subject ("Nouveau au cabinet : l'empreinte optique",
 * "L'hypnose arrive au cabinet"), the news section a URL names (`/actualites.php?id=9`) and numbers (an id,
 * a year, "5 conseils"): what the page is about is the rest.
 */
const ANNOUNCEMENT_WORDS = /^(?:\d+|cabinet|centre|nouveau|nouvelle|nouveaux|nouvelles|nouveaute|nouveautes|new|arrive|arrivee|desormais|actualite|actualites|actu|actus|news|blog|article|articles|post|posts|breve|breves)$/;

/** What a news post may announce: a treatment (its hub, its details, a need page) or the practice's own (hours, access). */
const ANNOUNCED_KINDS: ReadonlySet<string> = new Set(["service_hub", "service_detail", "need", "cabinet"]);
/** The verbs of an arrival ("arrivent au cabinet", "rejoint"): what an announcement says beside its subject. */
const ARRIVAL = /^(?:arrive|arrivent|arriver|debarque|debarquent|rejoint|rejoignent|accueille|accueillons|lance|lancons)$/;
/** A word of news (NOVELTY). */
const NOVELTY_WORD = new RegExp(`^(?:${NOVELTY})$`);
/**
 * The old site announcing itself ("Notre nouveau site internet est en ligne !", "Bienvenue sur notre nouveau site", "Le
 * cabinet a son site internet") by a name made of these words, "site" among them: what it announced is the old site
 * itself, which the new one replaces; no page of the new site is its counterpart. Every blind truth holding such a post
 * drops it (seventeen: DotNetNuke, Dotclear, Duda, Ghost, GoDaddy, Google Sites, Hugo, IONOS, Jekyll, Joomla 4, Odoo,
 * the hand-made PHP site, Simplébo, SITE123, Umbraco, Wix, WPML); Joomla 4's and the PHP site's went to the legal
 * notice, whose text names the site's maker and host.
 */
const WEBSITE = /^(?:site|sites|website|siteweb|internet|web)$/;
// (And its makeover, "Notre site fait peau neuve": IONOS's and SITE123's truths drop theirs too.)
const WEBSITE_CONTEXT = new RegExp(`^(?:${NOVELTY}|bienvenue|welcome|sur|notre|nos|votre|vos|our|le|la|les|l|un|une|son|sa|a|est|en|ligne|online|du|de|cabinet|centre|version|voici|decouvrez|live|fait|peau|neuve|neuf)$`);
const announcesWebsite = (set: string[]): boolean => set.some((w) => w === "site" || w === "website" || w === "siteweb") && set.every((w) => WEBSITE.test(w) || WEBSITE_CONTEXT.test(w));

/** Whether a best guess is taken: over MIN_CONFIDENCE, or over the site's bar and clearly ahead of the runner-up. */
export function accepted(confidence: number, runnerUp: number, threshold: number): boolean {
  return confidence >= MIN_CONFIDENCE || (confidence >= threshold && runnerUp <= CLEAR_MARGIN * confidence);
}

/**
 * The site's bar: a third of the median best-guess confidence of its pages, between FLOOR_CONFIDENCE and
 * MIN_CONFIDENCE. A site rewritten in other words scores lower throughout, and its right guesses with it.
 */
export function siteThreshold(bests: number[]): number {
  if (bests.length === 0) return MIN_CONFIDENCE;
  const sorted = [...bests].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return Math.min(MIN_CONFIDENCE, Math.max(FLOOR_CONFIDENCE, Math.round((median / 3) * 100) / 100));
}
