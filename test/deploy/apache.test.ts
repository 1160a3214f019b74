import { describeProxy } from './proxy-suite.ts';
import { startApache } from './proxies.ts';

// docs/deploy/apache.conf under Debian's apache2 2.4: discovery, a 20 MB conversion, post_allow, wss.
describeProxy('Apache httpd', startApache);
