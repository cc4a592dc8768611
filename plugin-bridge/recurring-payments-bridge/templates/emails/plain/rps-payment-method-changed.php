<?php
/**
 * Payment method changed (plain text). A theme overrides it by copying it to
 * yourtheme/recurring-payments-bridge/emails/plain/rps-payment-method-changed.php.
 *
 * @var array<string, mixed> $subscription the subscription as the service answered it
 * @var array<string, mixed> $event        the service's callback
 * @var list<string>         $others       other subscriptions on the new payment method
 * @var string               $customer_name
 * @var string               $email_heading
 * @var string               $additional_content
 * @var WC_Email             $email
 */

defined( 'ABSPATH' ) || exit;

$name = (string) ( $subscription['name'] ?? '' );
/* translators: %s: the subscription's name */
$lines = array( sprintf( __( 'Your subscription %s is now paid with your new payment method.', 'recurring-payments-bridge' ), $name ) );
if ( $others ) {
	/* translators: %s: names of subscriptions, comma-separated */
	$lines[] = sprintf( __( 'So are: %s.', 'recurring-payments-bridge' ), implode( ', ', $others ) );
}
/* translators: %s: the customer's first name */
$greeting = '' !== $customer_name ? sprintf( __( 'Hi %s,', 'recurring-payments-bridge' ), $customer_name ) : __( 'Hello,', 'recurring-payments-bridge' );

echo '= ' . esc_html( wp_strip_all_tags( $email_heading ) ) . " =\n\n";
echo esc_html( $greeting ) . "\n\n";
foreach ( $lines as $line ) {
	echo esc_html( $line ) . "\n\n";
}
if ( $additional_content ) {
	echo esc_html( wp_strip_all_tags( wptexturize( $additional_content ) ) ) . "\n\n";
}
echo wp_kses_post( apply_filters( 'woocommerce_email_footer_text', get_option( 'woocommerce_email_footer_text' ) ) );
