<?php
/** Loads the stubs, then the plugin's classes (not the main file: it only registers hooks). */

require_once __DIR__ . '/stubs/state.php';
require_once __DIR__ . '/stubs/wordpress.php';
require_once __DIR__ . '/stubs/woocommerce.php';
require_once __DIR__ . '/stubs/subscriptions.php';
require_once __DIR__ . '/stubs/emails.php';
require_once __DIR__ . '/stubs/wcs.php';

// The plugin's own list of its files (by role, under includes/), so these tests follow its layout.
require_once dirname( __DIR__ ) . '/recurring-payments-bridge/includes/class-rps-plugin.php';
RPS_Plugin::require_classes();
