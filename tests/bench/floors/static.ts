/**
 * The static floor: every chart drawn from a precomputed JSON file (the site's first view), with
 * no database at all: the least a page drawing these charts can cost.
 */
import { decodeRows } from '../../../src/data/columns';
import type { FirstView } from '../../../src/data/firstView';
import { versionBarsQuery } from '../../../src/sql/charts';
import type { VersionRow } from '../../../src/sql/charts';
import { dataUrl, drawCharts } from './draw';

const view = (await (await fetch(new URL('first-view.json', dataUrl()))).json()) as FirstView;
const encoded = view.answers.find((a) => a.sql === versionBarsQuery(null).sql)?.rows;
const rows = encoded ? decodeRows<VersionRow>(encoded) : [];
await drawCharts(rows, view.catalog.compilers);
