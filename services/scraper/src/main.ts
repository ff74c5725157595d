import { runServiceMain } from '@bo/platform/service';
import scraper from './service';

runServiceMain(scraper);
