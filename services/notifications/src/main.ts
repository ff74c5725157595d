import { runServiceMain } from '@bo/platform/service';
import notifications from './service';

runServiceMain(notifications);
