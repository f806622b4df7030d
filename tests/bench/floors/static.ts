/**
 * The static floor: every chart drawn from a precomputed JSON file (the site's first view), with
 * no database at all: the least a page drawing these charts can cost.
 */
import type { FirstView } from '../../../src/data/firstView';
import { versionBarsQuery } from '../../../src/sql/charts';
import type { VersionRow } from '../../../src/sql/charts';
import { dataUrl, drawCharts } from './draw';

const view = (await (await fetch(new URL('first-view.json', dataUrl()))).json()) as FirstView;
const rows = view.answers.find((a) => a.sql === versionBarsQuery(null).sql)?.rows as VersionRow[];
await drawCharts(rows, view.catalog.compilers);
