/**
 * index.html fetches the files the first paint draws from while the scripts load: the first view
 * always, and for a link to requests/second the file of those charts (RPS_CHARTS_FILE), unless the
 * link asks for what no precomputed file holds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RPS_CHARTS_FILE } from '../../src/app/firstViewQueries';
import { FIRST_VIEW_FILE } from '../../src/data/firstView';

const html = fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../index.html'), 'utf8');

/** The files index.html preloads for a page opened at `search`: its static links, then what its inline scripts add. */
function preloaded(search: string): string[] {
  const links = [...html.matchAll(/<link rel="preload" href="([^"]+)"/g)].map((m) => m[1] ?? '');
  const added: { rel: string; href: string; as: string; crossOrigin: string }[] = [];
  const document = {
    createElement: () => ({ rel: '', href: '', as: '', crossOrigin: '' }),
    head: { append: (link: (typeof added)[number]) => added.push(link) },
    documentElement: { classList: { add: () => {} } },
  };
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
  for (const script of scripts) {
    new Function('location', 'document', 'localStorage', 'matchMedia', script)({ search }, document, { getItem: () => null }, () => ({ matches: false }));
  }
  expect(added.every((l) => l.rel === 'preload' && l.as === 'fetch' && l.crossOrigin === 'anonymous')).toBe(true);
  return [...links, ...added.map((l) => l.href)].filter((href) => href.startsWith('data/'));
}

describe('index.html', () => {
  it('preloads the first view, and with it the requests/second charts for a link to them', () => {
    expect(preloaded('')).toEqual([`data/${FIRST_VIEW_FILE}`]);
    expect(preloaded('?metric=rps')).toEqual([`data/${FIRST_VIEW_FILE}`, `data/${RPS_CHARTS_FILE}`]);
    expect(preloaded('?view=max&metric=rps&chart=data:SET')).toEqual([`data/${FIRST_VIEW_FILE}`, `data/${RPS_CHARTS_FILE}`]);
  });

  it('preloads no requests/second charts for a link that no precomputed file answers, or to another metric', () => {
    for (const search of ['?metric=rps&releases=all', '?hw=other&metric=rps', '?metric=rps&ext=1', '?metric=cycles', '?metric=rpsx']) {
      expect(preloaded(search)).toEqual([`data/${FIRST_VIEW_FILE}`]);
    }
  });
});
