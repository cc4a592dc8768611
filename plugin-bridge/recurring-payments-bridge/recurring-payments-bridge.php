<?php
/**
 * Plugin Name:          Recurring Payments Bridge
 * Description:          Pay WooCommerce orders through the recurring payments service (Mollie), keep products and orders in sync, and let the service bill subscriptions.
 * Version:              0.1.0
 * Requires at least:    6.4
 * Tested up to:         6.8
 * Requires PHP:         8.1
 * Requires Plugins:     woocommerce
 * WC requires at least: 8.0
 * WC tested up to:      9.9
 * Author:               Recurring Payments Service contributors
 * License:              GPL-2.0-or-later
 * License URI:          https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:          recurring-payments-bridge
 * Domain Path:          /languages
 */

defined( 'ABSPATH' ) || exit;

const RPS_VERSION     = '0.1.0';
const RPS_PLUGIN_FILE = __FILE__;
const RPS_TEXT_DOMAIN = 'recurring-payments-bridge';

// Everything else (which files, which hooks, when) is wired by one class: includes/class-rps-plugin.php.
require_once __DIR__ . '/includes/class-rps-plugin.php';
RPS_Plugin::load();
