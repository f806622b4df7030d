/** Entry point: styles, then the app. */
import './style.css';
import { startApp } from './app/app';

performance.mark('app:start');
void startApp();
