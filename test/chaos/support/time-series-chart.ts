import escapeHtml from 'escape-html';
import { launchBrowser } from '../../support/browser';

export interface Series {
  name: string;
  /** [seconds since start, value] */
  points: [number, number][];
}

export interface Panel {
  title: string;
  unit: string;
  series: Series[];
}

const WIDTH = 1000;
const PANEL_HEIGHT = 260;
const MARGIN = { left: 70, right: 190, top: 30, bottom: 36 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#17becf'];

/** Stacked line charts sharing the time axis, as one SVG document. */
export function timeSeriesSvg(panels: readonly Panel[]): string {
  const height = panels.length * PANEL_HEIGHT;
  const body = panels.map((panel, i) => panelSvg(panel, i * PANEL_HEIGHT)).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="white"/>${body}</svg>`;
}

function panelSvg(panel: Panel, top: number): string {
  const all = panel.series.flatMap((s) => s.points);
  const maxX = Math.max(1, ...all.map(([x]) => x));
  const maxY = niceCeiling(Math.max(1e-9, ...all.map(([, y]) => y)));
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (v: number) => MARGIN.left + (v / maxX) * plotW;
  const y = (v: number) => top + MARGIN.top + plotH - (v / maxY) * plotH;
  const parts: string[] = [
    `<text x="${MARGIN.left}" y="${top + 18}" font-weight="bold">${escapeHtml(panel.title)} (${escapeHtml(panel.unit)})</text>`,
  ];
  for (let t = 0; t <= 4; t++) {
    const value = (maxY * t) / 4;
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/>`,
      `<text x="${MARGIN.left - 6}" y="${y(value) + 4}" text-anchor="end">${formatTick(value)}</text>`,
    );
    const seconds = (maxX * t) / 4;
    parts.push(
      `<text x="${x(seconds)}" y="${top + PANEL_HEIGHT - 14}" text-anchor="middle">${formatTick(seconds)} s</text>`,
    );
  }
  panel.series.forEach((series, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const path = series.points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`);
    if (path.length > 0) {
      parts.push(
        `<polyline fill="none" stroke="${colour}" stroke-width="1.6" points="${path.join(' ')}"/>`,
      );
    }
    const legendY = top + MARGIN.top + 14 + i * 18;
    parts.push(
      `<rect x="${WIDTH - MARGIN.right + 12}" y="${legendY - 9}" width="12" height="3" fill="${colour}"/>`,
      `<text x="${WIDTH - MARGIN.right + 30}" y="${legendY - 4}">${escapeHtml(series.name)}</text>`,
    );
  });
  return parts.join('\n');
}

function niceCeiling(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * magnitude >= value) ?? 10;
  return step * magnitude;
}

function formatTick(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 1 : 0);
}

/** Renders an SVG document to a PNG with the machine's Chromium. */
export async function svgToPng(svg: string): Promise<Buffer> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
    return await page.locator('svg').screenshot();
  } finally {
    await browser.close();
  }
}
