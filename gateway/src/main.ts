import { runServiceMain } from '@bo/platform/service';
import gateway from './service';

runServiceMain(gateway);
