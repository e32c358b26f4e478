/**
 * Draws the demo media files (ops/demo/backend/media/) from SVG and encodes them with sharp.
 *
 * Run once after changing the catalogue or a drawing: `npx tsx ops/demo/backend/make-media.ts`.
 * The outputs are committed, so neither the server nor the tests depend on sharp at run time.
 * Drawings are flat vector illustrations on purpose: they encode to a few KB each.
 */
import { mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { ASSETS, assetFiles, type AssetKey, type AssetSpec } from "./fixtures/media-catalog.js";

const MEDIA_ROOT = fileURLToPath(new URL("./media/", import.meta.url));
const FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif";

// ---------------------------------------------------------------------------------------------
// Drawing helpers. Every drawing works in its own viewBox; sharp rasterises it at the target size.

const hsl = (h: number, s: number, l: number): string => `hsl(${h % 360},${s}%,${l}%)`;

function svg(width: number, height: number, body: string, viewBox = `0 0 ${width} ${height}`): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${viewBox}">${body}</svg>`;
}

/** A molar silhouette in a 44×60 box; the practices' logo mark. */
const TOOTH =
  "M10 8C4 8 2 16 3 24C4 34 8 40 10 52C11 58 16 58 17 52L19 40C20 36 24 36 25 40L27 52C28 58 33 58 34 52" +
  "C36 40 40 34 41 24C42 16 40 8 34 8C30 8 27 11 22 11C17 11 14 8 10 8Z";

function tooth(x: number, y: number, scale: number, fill: string, stroke = "none"): string {
  return `<path d="${TOOTH}" transform="translate(${x} ${y}) scale(${scale})" fill="${fill}" stroke="${stroke}" stroke-width="${stroke === "none" ? 0 : 2 / scale}"/>`;
}

function plant(x: number, y: number, s: number, hue: number): string {
  return `<g transform="translate(${x} ${y}) scale(${s})">
    <path d="M-30 0h60l-8 70h-44z" fill="${hsl(hue + 20, 25, 82)}"/>
    <path d="M0 0C-10-40-50-60-70-70C-40-40-30-20 0 0Z" fill="hsl(140,35%,38%)"/>
    <path d="M0 0C10-50 40-80 60-95C45-55 30-25 0 0Z" fill="hsl(135,40%,32%)"/>
    <path d="M0 0C-2-60 10-110 20-130C25-80 15-40 0 0Z" fill="hsl(145,30%,45%)"/></g>`;
}

/** Treatment room: window, dental chair, overhead lamp, cabinets. Used by the heroes and one photo. */
function treatmentRoom(hue: number, accentHue: number): string {
  return svg(
    1600,
    900,
    `<defs><linearGradient id="wall" x1="0" y1="0" x2="0" y2="1">
       <stop offset="0" stop-color="${hsl(hue, 35, 95)}"/><stop offset="1" stop-color="${hsl(hue, 30, 86)}"/></linearGradient>
     <linearGradient id="sky" x1="0" y1="0" x2="1" y2="1">
       <stop offset="0" stop-color="${hsl(200, 70, 85)}"/><stop offset="1" stop-color="${hsl(210, 60, 95)}"/></linearGradient></defs>
    <rect width="1600" height="900" fill="url(#wall)"/>
    <rect y="700" width="1600" height="200" fill="${hsl(hue, 12, 78)}"/>
    <rect x="120" y="140" width="420" height="430" rx="8" fill="#fff"/>
    <rect x="140" y="160" width="380" height="390" fill="url(#sky)"/>
    <path d="M140 470C230 430 330 450 400 420C450 400 500 410 520 400V550H140Z" fill="${hsl(130, 25, 70)}"/>
    ${[0, 1, 2, 3, 4, 5, 6].map((i) => `<rect x="140" y="${175 + i * 52}" width="380" height="10" fill="#fff" opacity=".55"/>`).join("")}
    <rect x="1060" y="430" width="420" height="270" rx="10" fill="#fff"/>
    <rect x="1060" y="420" width="420" height="24" rx="6" fill="${hsl(hue, 20, 70)}"/>
    <rect x="1085" y="470" width="175" height="200" rx="8" fill="${hsl(hue, 30, 93)}"/>
    <rect x="1280" y="470" width="175" height="200" rx="8" fill="${hsl(hue, 30, 93)}"/>
    <rect x="1240" y="560" width="6" height="40" rx="3" fill="${hsl(hue, 15, 60)}"/>
    <rect x="1294" y="560" width="6" height="40" rx="3" fill="${hsl(hue, 15, 60)}"/>
    <rect x="1100" y="150" width="360" height="200" rx="10" fill="#fff"/>
    <rect x="1100" y="230" width="360" height="8" fill="${hsl(hue, 20, 88)}"/>
    ${plant(1420, 360, 0.8, hue)}
    <path d="M800 60V180" stroke="${hsl(hue, 10, 55)}" stroke-width="14"/>
    <path d="M800 180L930 250" stroke="${hsl(hue, 10, 55)}" stroke-width="14" stroke-linecap="round"/>
    <ellipse cx="950" cy="265" rx="70" ry="30" fill="${hsl(hue, 10, 40)}"/>
    <ellipse cx="950" cy="280" rx="55" ry="12" fill="${hsl(50, 100, 88)}"/>
    <path d="M880 290L760 690H1140L1020 290Z" fill="${hsl(50, 100, 90)}" opacity=".35"/>
    <rect x="740" y="650" width="60" height="60" fill="${hsl(hue, 10, 45)}"/>
    <ellipse cx="770" cy="712" rx="150" ry="16" fill="${hsl(hue, 10, 40)}"/>
    <path d="M600 560C600 520 630 500 670 500H1000C1060 500 1100 520 1140 560L1180 600C1190 615 1180 630 1160 630H640C615 630 600 610 600 590Z"
      fill="${hsl(accentHue, 45, 55)}"/>
    <path d="M580 580C560 480 560 380 590 330C605 305 640 305 650 330C665 380 660 470 660 560Z" fill="${hsl(accentHue, 45, 50)}"/>
    <rect x="575" y="290" width="90" height="50" rx="25" fill="${hsl(accentHue, 40, 45)}"/>
    <rect x="430" y="520" width="150" height="14" rx="7" fill="${hsl(hue, 10, 60)}"/>
    <rect x="440" y="480" width="130" height="40" rx="8" fill="#fff"/>
    <circle cx="470" cy="500" r="8" fill="${hsl(hue, 40, 60)}"/><circle cx="500" cy="500" r="8" fill="${hsl(hue, 40, 60)}"/>
    <rect x="498" y="534" width="14" height="170" fill="${hsl(hue, 10, 60)}"/>`,
  );
}

function reception(hue: number): string {
  return svg(
    1600,
    1067,
    `<rect width="1600" height="1067" fill="${hsl(hue, 30, 93)}"/>
    <rect y="800" width="1600" height="267" fill="${hsl(30, 25, 72)}"/>
    ${[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `<rect x="${i * 200}" y="800" width="4" height="267" fill="${hsl(30, 20, 64)}"/>`).join("")}
    <rect x="220" y="170" width="300" height="210" rx="6" fill="#fff"/>
    <rect x="240" y="190" width="260" height="170" fill="${hsl(hue + 40, 35, 80)}"/>
    <circle cx="420" cy="240" r="30" fill="${hsl(45, 80, 75)}"/>
    <path d="M240 360L330 270L400 330L450 290L500 340V360Z" fill="${hsl(hue + 80, 25, 55)}"/>
    <rect x="620" y="520" width="760" height="300" rx="16" fill="${hsl(hue, 35, 45)}"/>
    <rect x="600" y="500" width="800" height="40" rx="10" fill="${hsl(30, 30, 80)}"/>
    <rect x="1050" y="400" width="170" height="110" rx="8" fill="${hsl(hue, 10, 25)}"/>
    <rect x="1127" y="510" width="16" height="10" fill="${hsl(hue, 10, 25)}"/>
    <rect x="1062" y="412" width="146" height="86" rx="4" fill="${hsl(hue, 50, 70)}"/>
    ${tooth(780, 600, 2.4, "#fff")}
    <rect x="100" y="700" width="360" height="50" rx="20" fill="${hsl(hue + 180, 30, 55)}"/>
    <rect x="100" y="620" width="160" height="90" rx="24" fill="${hsl(hue + 180, 30, 60)}"/>
    <rect x="300" y="620" width="160" height="90" rx="24" fill="${hsl(hue + 180, 30, 60)}"/>
    <rect x="120" y="750" width="14" height="60" fill="${hsl(hue, 10, 35)}"/><rect x="426" y="750" width="14" height="60" fill="${hsl(hue, 10, 35)}"/>
    ${plant(1480, 800, 1.3, hue)}
    <circle cx="800" cy="120" r="40" fill="${hsl(50, 90, 85)}"/><rect x="796" y="0" width="8" height="80" fill="${hsl(hue, 10, 50)}"/>`,
  );
}

function scanner(hue: number): string {
  return svg(
    1600,
    1067,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
       <stop offset="0" stop-color="${hsl(hue, 40, 92)}"/><stop offset="1" stop-color="${hsl(hue, 35, 80)}"/></linearGradient>
     <radialGradient id="tooth3d" cx=".4" cy=".3" r=".8"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="${hsl(hue, 20, 78)}"/></radialGradient></defs>
    <rect width="1600" height="1067" fill="url(#bg)"/>
    <rect x="560" y="140" width="860" height="560" rx="24" fill="${hsl(hue, 15, 20)}"/>
    <rect x="590" y="170" width="800" height="500" rx="10" fill="${hsl(hue, 40, 30)}"/>
    <rect x="950" y="700" width="80" height="120" fill="${hsl(hue, 10, 40)}"/>
    <rect x="850" y="810" width="280" height="30" rx="15" fill="${hsl(hue, 10, 35)}"/>
    ${tooth(820, 230, 7, "url(#tooth3d)")}
    ${[0, 1, 2, 3, 4].map((i) => `<path d="M640 ${260 + i * 80}H760" stroke="${hsl(hue, 60, 60)}" stroke-width="6" opacity=".6"/>`).join("")}
    <g transform="rotate(-25 300 650)">
      <rect x="120" y="600" width="420" height="90" rx="45" fill="#fff"/>
      <rect x="480" y="615" width="150" height="60" rx="20" fill="${hsl(hue, 15, 85)}"/>
      <rect x="200" y="630" width="120" height="30" rx="15" fill="${hsl(hue, 50, 55)}"/>
      <path d="M120 645H20" stroke="${hsl(hue, 10, 50)}" stroke-width="14" stroke-linecap="round"/>
    </g>`,
  );
}

function radiology(hue: number): string {
  const teeth = Array.from({ length: 14 }, (_, i) => {
    const x = 460 + i * 50;
    const arc = Math.abs(i - 6.5) ** 2 * 2.2;
    return (
      `<rect x="${x}" y="${380 + arc}" width="38" height="${110 - arc / 3}" rx="16" fill="#e8eef2"/>` +
      `<rect x="${x + 2}" y="${560 - arc}" width="34" height="${100 - arc / 3}" rx="14" fill="#dfe7ec"/>`
    );
  }).join("");
  return svg(
    1600,
    1067,
    `<rect width="1600" height="1067" fill="${hsl(hue, 25, 88)}"/>
    <rect x="260" y="160" width="1080" height="660" rx="28" fill="${hsl(hue, 10, 15)}"/>
    <rect x="290" y="190" width="1020" height="600" rx="8" fill="#0d1114"/>
    <ellipse cx="800" cy="490" rx="420" ry="230" fill="#1d262c"/>
    ${teeth}
    <path d="M380 520C520 600 1080 600 1220 520" stroke="#55636d" stroke-width="6" fill="none"/>
    <rect x="720" y="820" width="160" height="90" fill="${hsl(hue, 10, 40)}"/>
    <rect x="620" y="900" width="360" height="30" rx="15" fill="${hsl(hue, 10, 35)}"/>`,
  );
}

function implantDiagram(hue: number): string {
  const threads = Array.from(
    { length: 9 },
    (_, i) =>
      `<path d="M710 ${560 + i * 40}L890 ${575 + i * 40}" stroke="#8c979e" stroke-width="14" stroke-linecap="round"/>`,
  ).join("");
  return svg(
    1600,
    1067,
    `<rect width="1600" height="1067" fill="${hsl(hue, 35, 95)}"/>
    <rect y="560" width="1600" height="507" fill="hsl(35,45%,84%)"/>
    ${[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => `<circle cx="${80 + i * 130}" cy="${700 + (i % 3) * 110}" r="${14 + (i % 4) * 4}" fill="hsl(35,40%,76%)"/>`).join("")}
    <path d="M0 480C250 440 500 500 700 470H900C1100 500 1350 440 1600 480V600H0Z" fill="hsl(350,55%,72%)"/>
    <path d="M720 540H880L860 930C855 960 745 960 740 930Z" fill="#b7c0c6"/>
    ${threads}
    <rect x="740" y="430" width="120" height="110" rx="10" fill="#cfd6da"/>
    <path d="M660 450C640 300 660 180 720 160C760 150 780 175 800 175C820 175 840 150 880 160C940 180 960 300 940 450C900 470 700 470 660 450Z"
      fill="#fbfbf7" stroke="#e2e2d8" stroke-width="6"/>
    ${tooth(260, 250, 4.6, "#fbfbf7", "#e2e2d8")}
    ${tooth(1150, 250, 4.6, "#fbfbf7", "#e2e2d8")}
    <path d="M1010 300H1160" stroke="${hsl(hue, 50, 45)}" stroke-width="6" stroke-dasharray="14 10"/>
    <circle cx="1010" cy="300" r="12" fill="${hsl(hue, 50, 45)}"/>`,
  );
}

function alignerArch(hue: number): string {
  const teeth = Array.from({ length: 14 }, (_, i) => {
    const a = Math.PI * (0.08 + (0.84 * i) / 13);
    const x = 800 - Math.cos(a) * 520;
    const y = 300 + Math.sin(a) * 440;
    return `<ellipse cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" rx="${i > 4 && i < 9 ? 48 : 58}" ry="50" fill="#fbfbf6" stroke="#dcdcd2" stroke-width="5"/>`;
  }).join("");
  return svg(
    1600,
    1067,
    `<defs><radialGradient id="bg" cx=".5" cy=".3" r=".9"><stop offset="0" stop-color="${hsl(hue, 40, 96)}"/><stop offset="1" stop-color="${hsl(hue, 35, 82)}"/></radialGradient></defs>
    <rect width="1600" height="1067" fill="url(#bg)"/>
    <path d="M260 330C260 760 520 860 800 860S1340 760 1340 330" stroke="hsl(350,50%,75%)" stroke-width="150" fill="none" stroke-linecap="round"/>
    ${teeth}
    <path d="M250 330C250 780 520 890 800 890S1350 780 1350 330" stroke="${hsl(hue, 60, 70)}" stroke-width="10" fill="none" opacity=".6"/>
    <path d="M350 330C350 700 560 780 800 780S1250 700 1250 330" stroke="${hsl(hue, 60, 70)}" stroke-width="10" fill="none" opacity=".6"/>`,
  );
}

function gums(hue: number): string {
  const pair = (x: number, gum: string, label: string): string =>
    `<g transform="translate(${x} 0)">
      <rect x="0" y="180" width="560" height="700" rx="30" fill="#fff"/>
      ${tooth(80, 260, 4.2, "#fbfbf6", "#dcdcd2")}${tooth(290, 260, 4.2, "#fbfbf6", "#dcdcd2")}
      <path d="M40 520C120 470 200 470 280 520C360 470 440 470 520 520V760H40Z" fill="${gum}"/>
      <rect x="150" y="790" width="260" height="40" rx="20" fill="${label}"/></g>`;
  return svg(
    1600,
    1067,
    `<rect width="1600" height="1067" fill="${hsl(hue, 30, 92)}"/>
    ${pair(180, "hsl(350,55%,74%)", "hsl(140,40%,55%)")}${pair(860, "hsl(355,70%,52%)", "hsl(10,70%,60%)")}`,
  );
}

function smile(hue: number): string {
  const teeth = Array.from({ length: 10 }, (_, i) => {
    const x = 430 + i * 74;
    const dy = Math.abs(i - 4.5) ** 2 * 4;
    return `<rect x="${x}" y="${420 + dy}" width="70" height="${150 - dy}" rx="18" fill="#fdfdf8"/>`;
  }).join("");
  return svg(
    1600,
    1067,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(hue, 60, 88)}"/><stop offset="1" stop-color="${hsl(hue + 40, 60, 80)}"/></linearGradient></defs>
    <rect width="1600" height="1067" fill="url(#bg)"/>
    <path d="M300 420C500 330 700 380 800 400C900 380 1100 330 1300 420C1200 780 400 780 300 420Z" fill="hsl(355,55%,55%)"/>
    <path d="M370 440C560 400 1040 400 1230 440C1150 680 450 680 370 440Z" fill="hsl(350,40%,25%)"/>
    ${teeth}
    <path d="M300 420C500 330 700 380 800 400C900 380 1100 330 1300 420" stroke="hsl(355,50%,48%)" stroke-width="30" fill="none" stroke-linecap="round"/>
    ${[0, 1, 2].map((i) => `<path d="M${1300 + i * 60} ${200 + i * 70}l14 34 34 14-34 14-14 34-14-34-34-14 34-14z" fill="#fff" opacity=".9"/>`).join("")}`,
  );
}

interface PortraitStyle {
  bgHue: number;
  skin: string;
  hair: string;
  /** short, long, bun, cropped */
  hairStyle: "short" | "long" | "bun" | "cropped";
  coat: string;
}

function portrait(p: PortraitStyle): string {
  const hairBack =
    p.hairStyle === "long"
      ? `<path d="M150 250C140 150 190 95 240 95S340 150 330 250L345 420H135Z" fill="${p.hair}"/>`
      : p.hairStyle === "bun"
        ? `<circle cx="240" cy="95" r="42" fill="${p.hair}"/>`
        : "";
  const hairFront =
    p.hairStyle === "cropped"
      ? `<path d="M165 215C165 150 200 120 240 120S315 150 315 215C300 175 270 160 240 160S180 175 165 215Z" fill="${p.hair}"/>`
      : `<path d="M160 230C155 150 195 115 240 115S325 150 320 230C300 180 270 165 240 165C205 165 180 185 160 230Z" fill="${p.hair}"/>`;
  return svg(
    480,
    600,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hsl(p.bgHue, 35, 88)}"/><stop offset="1" stop-color="${hsl(p.bgHue, 30, 74)}"/></linearGradient></defs>
    <rect width="480" height="600" fill="url(#bg)"/>
    ${hairBack}
    <path d="M60 600C60 470 140 410 240 410S420 470 420 600Z" fill="${p.coat}"/>
    <path d="M200 410L240 480L280 410Z" fill="${hsl(p.bgHue + 180, 30, 60)}"/>
    <path d="M200 410L170 600M280 410L310 600" stroke="#d9dde0" stroke-width="4"/>
    <rect x="212" y="330" width="56" height="90" rx="20" fill="${p.skin}"/>
    <ellipse cx="240" cy="250" rx="78" ry="96" fill="${p.skin}"/>
    ${hairFront}
    <ellipse cx="212" cy="258" rx="7" ry="8" fill="#3a3030"/><ellipse cx="268" cy="258" rx="7" ry="8" fill="#3a3030"/>
    <path d="M212 305C228 318 252 318 268 305" stroke="#8a4a44" stroke-width="5" fill="none" stroke-linecap="round"/>`,
  );
}

function logoSvg(name: string, tagline: string, hue: number, textColor = hsl(hue, 40, 22)): string {
  return svg(
    320,
    96,
    `${tooth(14, 16, 1.05, hsl(hue, 55, 45))}
    <path d="M22 34C26 28 32 27 36 30" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round"/>
    <text x="72" y="48" font-family="${FONT}" font-size="24" font-weight="700" fill="${textColor}">${name}</text>
    <text x="72" y="74" font-family="${FONT}" font-size="14" fill="${hsl(hue, 20, 40)}">${tagline}</text>`,
  );
}

function favicon(hue: number): string {
  return svg(64, 64, `<rect width="64" height="64" rx="14" fill="${hsl(hue, 55, 45)}"/>${tooth(12, 5, 0.92, "#fff")}`);
}

function ogCard(name: string, city: string, hue: number, accentHue: number): string {
  return svg(
    1200,
    630,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hsl(hue, 55, 40)}"/><stop offset="1" stop-color="${hsl(hue + 20, 50, 28)}"/></linearGradient></defs>
    <rect width="1200" height="630" fill="url(#bg)"/>
    <circle cx="1040" cy="120" r="260" fill="${hsl(accentHue, 50, 55)}" opacity=".25"/>
    ${tooth(80, 190, 3.6, "#fff")}
    <text x="300" y="300" font-family="${FONT}" font-size="54" font-weight="700" fill="#fff">${name}</text>
    <text x="300" y="370" font-family="${FONT}" font-size="36" fill="${hsl(hue, 40, 88)}">${city}</text>`,
  );
}

// ---------------------------------------------------------------------------------------------
// One drawing per catalogue entry; `satisfies` makes a missing drawing a compile error.

const SKIN = ["#f2d3bd", "#e7bb9a", "#c68c64", "#8d5a3b", "#f5dccb"] as const;

const DRAWINGS = {
  logoDupont: () => logoSvg("Cabinet Dupont", "Chirurgiens-dentistes · Lyon 6e", 235),
  logoMartin: () => logoSvg("Centre Martin", "Centre dentaire · Bordeaux", 165),
  logoBernard: () => logoSvg("Dr Bernard", "Cabinet dentaire · Nantes", 20),
  logoPetit: () => logoSvg("Cabinet Petit", "Dentisterie douce · Lille", 300),
  logoLeroy: () => logoSvg("Cabinet Leroy", "Chirurgien-dentiste · Toulouse", 60),
  logoSynthetic: () => logoSvg("Cabinet démo", "Site de démonstration", 210),
  faviconDupont: () => favicon(235),
  faviconMartin: () => favicon(165),
  faviconPetit: () => favicon(300),
  ogDupont: () => ogCard("Cabinet dentaire Dupont", "Lyon 6e", 235, 160),
  ogMartin: () => ogCard("Centre dentaire Martin", "Bordeaux Chartrons", 165, 45),
  heroDupont: () => treatmentRoom(235, 160),
  heroMartin: () => treatmentRoom(165, 45),
  heroBernard: () => treatmentRoom(20, 250),
  heroPetit: () => treatmentRoom(300, 90),
  heroLeroy: () => treatmentRoom(60, 200),
  photoSalleDeSoins: () => treatmentRoom(200, 190),
  photoAccueil: () => reception(210),
  photoScanner: () => scanner(200),
  photoRadio: () => radiology(210),
  photoImplant: () => implantDiagram(200),
  photoAligneur: () => alignerArch(190),
  photoGencives: () => gums(190),
  photoSourire: () => smile(195),
  teamClaireDupont: () => portrait({ bgHue: 235, skin: SKIN[0], hair: "#5a3a22", hairStyle: "long", coat: "#ffffff" }),
  teamThomasDupont: () => portrait({ bgHue: 235, skin: SKIN[4], hair: "#2b2b2b", hairStyle: "short", coat: "#ffffff" }),
  teamSarahBenali: () =>
    portrait({ bgHue: 160, skin: SKIN[2], hair: "#1e1a18", hairStyle: "bun", coat: hsl(200, 45, 70) }),
  teamJulienMartin: () =>
    portrait({ bgHue: 165, skin: SKIN[1], hair: "#7b5a3a", hairStyle: "cropped", coat: "#ffffff" }),
  teamAmeliePerrin: () => portrait({ bgHue: 165, skin: SKIN[0], hair: "#c9a15a", hairStyle: "long", coat: "#ffffff" }),
  teamHugoLambert: () =>
    portrait({ bgHue: 45, skin: SKIN[3], hair: "#151212", hairStyle: "cropped", coat: hsl(165, 35, 60) }),
  teamSophieBernard: () => portrait({ bgHue: 20, skin: SKIN[4], hair: "#8a3b22", hairStyle: "bun", coat: "#ffffff" }),
  teamLucasMoreau: () => portrait({ bgHue: 250, skin: SKIN[1], hair: "#3d2b1f", hairStyle: "short", coat: "#ffffff" }),
  teamCamillePetit: () => portrait({ bgHue: 300, skin: SKIN[0], hair: "#2f2220", hairStyle: "long", coat: "#ffffff" }),
  teamNadiaHaddad: () =>
    portrait({ bgHue: 90, skin: SKIN[2], hair: "#1b1514", hairStyle: "bun", coat: hsl(300, 25, 70) }),
  teamPaulLeroy: () => portrait({ bgHue: 60, skin: SKIN[4], hair: "#9a9a9a", hairStyle: "cropped", coat: "#ffffff" }),
} satisfies Record<AssetKey, () => string>;

async function encode(source: string, spec: AssetSpec, width: number, height: number): Promise<Buffer> {
  if (spec.ext === "svg") return Buffer.from(source, "utf8");
  const image = sharp(Buffer.from(source), { density: 72 * Math.max(1, width / spec.width) }).resize(width, height);
  switch (spec.ext) {
    case "webp":
      return image.webp({ quality: 72, effort: 6 }).toBuffer();
    case "png":
      return image.png({ compressionLevel: 9, palette: true }).toBuffer();
    case "jpg":
      // JPEG has no alpha: flatten onto white, as a logo on a white header would look.
      return image.flatten({ background: "#ffffff" }).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
  }
}

async function main(): Promise<void> {
  await rm(MEDIA_ROOT, { recursive: true, force: true });
  let total = 0;
  let count = 0;
  for (const key of Object.keys(ASSETS) as AssetKey[]) {
    const spec: AssetSpec = ASSETS[key];
    const source = DRAWINGS[key]();
    for (const file of assetFiles(spec)) {
      const out = join(MEDIA_ROOT, file.file);
      await mkdir(dirname(out), { recursive: true });
      const bytes = await encode(source, spec, file.width, file.height);
      await writeFile(out, bytes);
      total += bytes.length;
      count += 1;
    }
  }
  // Sanity check: what the catalogue announces is what was written.
  const listed = await listFiles(MEDIA_ROOT);
  console.log(
    `wrote ${count} files (${listed.length} on disk), ${(total / 1024).toFixed(0)} KB in total, to ${MEDIA_ROOT}`,
  );
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir)) {
    const full = join(dir, entry);
    if ((await stat(full)).isDirectory()) out.push(...(await listFiles(full)));
    else out.push(full);
  }
  return out;
}

await main();
