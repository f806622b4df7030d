/**
 * The static floor: every chart drawn from the precomputed answers the site publishes (the first
 * view, then the file of the other charts), with no database at all: the least a page drawing
 * these charts can cost.
 */
import { chartParts } from '../../../src/views/chartData';
import { fetchAnswers, fetchFirstView } from '../../../src/data/dataset';
import { answeringRunner } from '../../../src/data/firstView';
import { RPS } from '../../../src/vocabulary';
import { versionBarsQuery } from '../../../src/sql/charts';
import { dataUrl, drawCharts } from './draw';

const view = await fetchFirstView(dataUrl());
if (!view) throw new Error('no first view');
const noEngine = { run: () => Promise.reject(new Error('the static floor has no database')) };
const answers = answeringRunner(view, noEngine, (file) => fetchAnswers(dataUrl(), file));
// The site's default: the current versions alone when the plan marks others.
const currentOnly = view.catalog.currentVersions.length < view.catalog.versions.length;
await drawCharts(chartParts(view.catalog.charts).map((part) => () => answers.run(versionBarsQuery(null, RPS, currentOnly, part))), view.catalog.compilers);
