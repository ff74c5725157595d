import { runServiceMain } from '@bo/platform/service';
import pricing from './service';

runServiceMain(pricing);
