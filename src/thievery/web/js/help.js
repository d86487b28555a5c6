// "How to play": a panel per game, reachable from the lobby, the table and the replay.
// A short introduction of our own (the goal, a turn, the cards or tiles, the end and the
// scoring; English and German), then the game's rules page (RULES.md, served at
// /api/games/<game>/rules: the decisions we took where the rulebook is silent; a German
// page asks for ?lang=de and gets RULES.de.md where the game has one), drawn by a tiny
// Markdown renderer that escapes every character first.

import { esc, trapFocus } from "/static/js/common.js";
import { addGerman, lang, t } from "/static/js/i18n.js";

addGerman({
  "Where the rulebook is silent or unclear, this is what we decided.":
    "Wo die Spielregel schweigt oder unklar ist, haben wir so entschieden.",
});

/** Inline Markdown on one escaped line: `code`, **bold**, *italics*. */
function inline(text) {
  return esc(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^*\w])\*([^*\s](?:[^*]*[^*\s])?)\*(?![*\w])/g, "$1<em>$2</em>");
}

/**
 * Markdown to HTML, only what our rules pages use: headings, paragraphs, "-" and "1."
 * lists (indented lines continue an item), `code`, **bold**, *italics*. Every character
 * of the source is escaped, so no HTML in it ever reaches the page as markup.
 */
export function markdown(source) {
  const out = [];
  let para = [];
  let list = null; // { tag: "ul" | "ol", items: [string] }
  const flushPara = () => {
    if (para.length) out.push(`<p>${inline(para.join(" "))}</p>`);
    para = [];
  };
  const flushList = () => {
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join("")}</${list.tag}>`);
    list = null;
  };
  for (const raw of String(source ?? "").replace(/\r/g, "").split("\n")) {
    const line = raw.replace(/\s+$/, "");
    let m;
    if (!line.trim()) {
      flushPara();
      flushList();
    } else if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      flushPara();
      flushList();
      const level = Math.min(6, m[1].length + 2);
      out.push(`<h${level}>${inline(m[2])}</h${level}>`);
    } else if ((m = /^\s*(?:[-*+]|(\d+)\.)\s+(.*)$/.exec(line))) {
      flushPara();
      const tag = m[1] ? "ol" : "ul";
      if (!list || list.tag !== tag) {
        flushList();
        list = { tag, items: [] };
      }
      list.items.push(m[2]);
    } else if (list && /^\s/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
    } else {
      flushList();
      para.push(line.trim());
    }
  }
  flushPara();
  flushList();
  return out.join("\n");
}

// A rules page's section for programs (its view keys, actions and rules versions: what
// bots, RL environments and API clients read) is not shown to players.
const FOR_PROGRAMS = /^##\s+(For programs|Für Programme)\s*$/;

/** A rules page without its sections for programs (each up to the next heading of its level). */
export function forPlayers(source) {
  const kept = [];
  let skipping = false;
  for (const line of String(source ?? "").replace(/\r/g, "").split("\n")) {
    if (/^#{1,2}\s/.test(line)) skipping = FOR_PROGRAMS.test(line);
    if (!skipping) kept.push(line);
  }
  return kept.join("\n");
}

// Our own short introductions: the goal, a turn, the cards or tiles, the end and scoring.
const INTROS = {
  schattendieb: {
    en: [
      ["Goal", "Fill your safe with jewellery and close it in time: the value of the jewellery in a closed safe is your score. A match is 3 games."],
      ["A round", "Everyone picks one hand card in secret; all are shown together. Jewellery of a value shown more than once is thrown away (a tie). Thieves then steal: the Shadow Thief takes any jewellery, each other thief one of its kind. If your jewellery is still in front of you, you may add more cards of the same kind. Then all jewellery goes into its owner's safe and everyone draws back up to 4 cards."],
      ["The cards", "Jewellery: brooch, ring, watch and cufflink, values 1 to 10. Close Safe cards (4 to 15): a safe with at least one card in it closes when its card is at least the number of cards in the safe. Thieves: the Shadow Thief and one for each kind of jewellery."],
      ["End and scoring", "A closed safe scores the sum of its jewellery; an open safe scores 0. The game ends when only one safe is open, when everyone still playing shows a Close Safe card in the same round (all score 0), or when the pile is empty and someone has no cards left. After 3 games the highest total wins."],
    ],
    de: [
      ["Ziel", "Fülle deinen Tresor mit Schmuck und schließe ihn rechtzeitig: Der Wert des Schmucks in einem geschlossenen Tresor sind deine Punkte. Eine Partie hat 3 Spiele."],
      ["Eine Runde", "Alle wählen geheim eine Handkarte; alle werden zugleich aufgedeckt. Schmuck eines Werts, der mehrfach gezeigt wird, wird abgeworfen (Gleichstand). Dann stehlen die Diebe: Der Schattendieb nimmt irgendeinen Schmuck, jeder andere Dieb einen seiner Sorte. Liegt dein Schmuck noch vor dir, darfst du weitere Karten derselben Sorte anlegen. Dann kommt aller Schmuck in den Tresor seines Besitzers, und alle ziehen auf 4 Karten nach."],
      ["Die Karten", "Schmuck: Brosche, Ring, Uhr und Manschettenknopf, Werte 1 bis 10. „Tresor zu“-Karten (4 bis 15): Ein Tresor mit mindestens einer Karte schließt, wenn die Karte mindestens so hoch ist wie die Zahl der Karten darin. Diebe: der Schattendieb und je einer für jede Schmucksorte."],
      ["Ende und Wertung", "Ein geschlossener Tresor zählt die Summe seines Schmucks, ein offener 0. Das Spiel endet, wenn nur noch ein Tresor offen ist, wenn alle noch Spielenden in derselben Runde eine „Tresor zu“-Karte zeigen (alle bekommen 0) oder wenn der Stapel leer ist und jemand keine Karten mehr hat. Nach 3 Spielen gewinnt die höchste Summe."],
    ],
  },
  thieves: {
    en: [
      ["Goal", "Have the most valuable loot when the 7th getaway car is placed — without being the richest player when the police raid."],
      ["A turn", "Draw up to 4 cards, then play one card from your hand. Money goes face down in front of you or face up in front of another player. Police cars go into play; Getaway cars are placed and replaced. Action cards: Roadblock removes a police card, Alarm makes everyone put all their police into play, the Thief moves one loot card from one player to another (or you may decline), Double Loot draws and plays two cards at once."],
      ["The cards", "Money worth 0 to 3, the Diamond Ring and the Horseshoe; police cards (1 or 2 cars each); 8 getaway cars; two each of Roadblock, Alarm, Thief and Double Loot."],
      ["Raids", "As soon as 4 or more police cars are in play, there is a raid: all loot is shown, and the richest player (Diamond Ring 3, Horseshoe 1) is busted and loses the loot."],
      ["End and scoring", "The game ends the moment the 7th getaway car is placed. Loot is counted with Diamond Ring 1 and Horseshoe 3. The most loot wins; ties share the win."],
    ],
    de: [
      ["Ziel", "Hab die wertvollste Beute, wenn das 7. Fluchtauto liegt — ohne bei einer Razzia der reichste Spieler zu sein."],
      ["Ein Zug", "Zieh auf 4 Karten nach und spiel dann eine Karte aus der Hand. Geld legst du verdeckt vor dich oder offen vor einen anderen Spieler. Polizeiautos kommen ins Spiel; Fluchtautos werden ausgelegt und ersetzt. Aktionskarten: Straßensperre entfernt eine Polizeikarte, Alarm lässt alle ihre Polizei ausspielen, der Dieb verschiebt eine Beutekarte von einem Spieler zu einem anderen (du darfst verzichten), Doppelte Beute zieht und spielt zwei Karten sofort."],
      ["Die Karten", "Geld im Wert 0 bis 3, der Diamantring und das Hufeisen; Polizeikarten (1 oder 2 Autos je Karte); 8 Fluchtautos; je zwei Straßensperren, Alarme, Diebe und Doppelte Beute."],
      ["Razzien", "Sobald 4 oder mehr Polizeiautos im Spiel sind, gibt es eine Razzia: Alle Beute wird gezeigt, und der reichste Spieler (Diamantring 3, Hufeisen 1) wird geschnappt und verliert seine Beute."],
      ["Ende und Wertung", "Das Spiel endet, sobald das 7. Fluchtauto liegt. Gezählt wird mit Diamantring 1 und Hufeisen 3. Die meiste Beute gewinnt; bei Gleichstand teilen sich alle den Sieg."],
    ],
  },
  "thieves-den": {
    en: [
      ["Goal", "Have the most Prestige after three rounds."],
      ["A round", "Scouting: everyone keeps one Location card from their hand in secret and passes the rest on, until the hands are empty. Thieving: in turn order each player takes one action or passes — Steal at a Location with a thief (gaining what it gives; its owner may get a bonus), sell treasures to a Fence for Prestige, Burgle (2 thieves → 1 treasure), Recruit (2 treasures → 1 thief), pay a treasure to the Witch or use a Power tile. Cleanup: Locations and Fences you collected go to your board."],
      ["The cards and tiles", "Locations of five types (Village, Shadow, Ruins, Holy, City), Fences, secret Schemes, the Witch and 12 Power tiles. Our card set is unofficial; every card shows what it does."],
      ["End and scoring", "After the third round: Prestige from Fences, the Witch, Schemes and the majority bonuses. The most Prestige wins."],
    ],
    de: [
      ["Ziel", "Hab nach drei Runden das meiste Prestige."],
      ["Eine Runde", "Auskundschaften: Alle behalten geheim eine Ortskarte aus der Hand und geben den Rest weiter, bis die Hände leer sind. Stehlen: Reihum macht jeder eine Aktion oder passt — an einem Ort mit Dieb stehlen (sein Besitzer bekommt vielleicht einen Bonus), Schätze an einen Hehler für Prestige verkaufen, Einbrechen (2 Diebe → 1 Schatz), Anwerben (2 Schätze → 1 Dieb), der Hexe einen Schatz zahlen oder ein Machtplättchen nutzen. Aufräumen: Gesammelte Orte und Hehler kommen auf dein Tableau."],
      ["Die Karten und Plättchen", "Orte in fünf Arten (Dorf, Schatten, Ruinen, Heilig, Stadt), Hehler, geheime Pläne, die Hexe und 12 Machtplättchen. Unser Kartensatz ist inoffiziell; jede Karte zeigt, was sie tut."],
      ["Ende und Wertung", "Nach der dritten Runde: Prestige aus Hehlern, der Hexe, Plänen und den Mehrheitsboni. Das meiste Prestige gewinnt."],
    ],
  },
  "schatz-rabatz": {
    en: [
      ["Goal", "Be the first to build your whole ship: bow, middle and stern."],
      ["A round", "Real time, everyone at once, while the hourglass runs: take treasures from the shared pile one at a time and drop each into your chest (pick a column, turn it, drop). Close your lid when you are done; when the hourglass runs out every lid closes."],
      ["The treasures", "40 treasures, 8 shapes in 5 colours. Small shapes pack well; goblets, swords and crowns are bulky. Anything sticking out above the rim is taken out when the lid closes."],
      ["End and scoring", "Jack's board is turned: treasures of the shape and colour it shows do not count. Whoever has the most treasures left takes the next ship part they need. The first to complete a ship wins."],
    ],
    de: [
      ["Ziel", "Bau als Erster dein ganzes Schiff: Bug, Mittelteil und Heck."],
      ["Eine Runde", "In Echtzeit, alle zugleich, solange die Sanduhr läuft: Nimm Schätze einzeln vom gemeinsamen Haufen und lass jeden in deine Schatzkiste fallen (Spalte wählen, drehen, fallen lassen). Schließ den Deckel, wenn du fertig bist; wenn die Sanduhr abläuft, schließen sich alle Deckel."],
      ["Die Schätze", "40 Schätze, 8 Formen in 5 Farben. Kleine Formen lassen sich gut packen; Kelche, Schwerter und Kronen sind sperrig. Was über den Rand ragt, wird beim Schließen herausgenommen."],
      ["Ende und Wertung", "Jacks Tafel wird umgedreht: Schätze in der Form und Farbe, die sie zeigt, zählen nicht. Wer die meisten Schätze übrig hat, nimmt das nächste Schiffsteil, das er braucht. Wer zuerst ein Schiff fertig hat, gewinnt."],
    ],
  },
};

/** The short introduction to a game in the page's language ([] for a game we do not know). */
export function intro(game) {
  const texts = INTROS[game];
  return texts ? texts[lang()] || texts.en : [];
}

let lastFocus = null;

function close() {
  document.getElementById("help")?.remove();
  lastFocus?.focus?.();
}

/** Open the "How to play" panel for a game (its name, and its title to show). */
export async function openHelp(game, title) {
  close();
  lastFocus = document.activeElement;
  const box = document.createElement("div");
  box.className = "overlay help-overlay";
  box.id = "help";
  const sections = intro(game).map(([head, text]) => `<h3>${esc(head)}</h3><p>${esc(text)}</p>`).join("");
  box.innerHTML = `<div class="help-panel" role="dialog" aria-modal="true" aria-labelledby="help-title">
      <div class="help-head"><h2 id="help-title">${esc(t("How to play: {game}", { game: title }))}</h2>
        <button type="button" class="small" id="help-close" aria-label="${esc(t("Close"))}">✕</button></div>
      <div class="help-body">${sections}
        <h3>${esc(t("Our rulings"))}</h3>
        <p class="help">${esc(t("Where the rulebook is silent or unclear, this is what we decided."))}</p>
        <div class="rules-md" id="help-rules">${esc(t("Loading…"))}</div></div>
    </div>`;
  box.addEventListener("click", (event) => { if (event.target === box) close(); });
  box.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
  trapFocus(box);
  document.body.appendChild(box);
  box.querySelector("#help-close").addEventListener("click", close);
  box.querySelector("#help-close").focus();
  try {
    const language = lang() === "de" ? "de" : "en"; // the page's language: its rules page
    const response = await fetch(`/api/games/${encodeURIComponent(game)}/rules?lang=${language}`);
    if (!response.ok) throw new Error(String(response.status));
    const text = await response.text();
    const target = box.querySelector("#help-rules");
    if (target) target.innerHTML = markdown(forPlayers(text));
  } catch {
    const target = box.querySelector("#help-rules");
    if (target) target.textContent = t("This game has no rules page.");
  }
}

/** A "How to play" button that opens the panel for the game `get()` names: [name, title]. */
export function helpButton(get) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "small help-btn";
  button.id = "how-to-play";
  button.textContent = t("How to play");
  button.addEventListener("click", () => {
    const [game, title] = get();
    if (game) openHelp(game, title);
  });
  return button;
}

