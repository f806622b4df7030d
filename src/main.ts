/** Entry point: styles, then the app. */
import './style.css';
import { startApp } from './app/app';
import { startTheme, themeControl } from './ui/theme';
import { byId } from './ui/dom';

performance.mark('app:start');
startTheme();
byId('site-tools').append(themeControl());
void startApp();
