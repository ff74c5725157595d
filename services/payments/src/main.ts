import { runServiceMain } from '@bo/platform/service';
import payments from './service';

runServiceMain(payments);
