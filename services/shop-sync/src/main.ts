import { runServiceMain } from '@bo/platform/service';
import shopSync from './service';

runServiceMain(shopSync);
