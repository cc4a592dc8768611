<?php
/**
 * Subscription cancelled (plain text). A theme overrides it by copying it to
 * yourtheme/recurring-payments-bridge/emails/plain/rps-subscription-cancelled.php.
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
$ends = RPS_Email_Subscription::date( $event['cancel_at'] ?? ( $subscription['cancel_at'] ?? null ) );
/* translators: %s: the subscription's name */
$lines = array( sprintf( __( 'Your subscription %s is cancelled.', 'recurring-payments-bridge' ), $name ) );
if ( '' !== $ends ) {
	/* translators: %s: a date */
	$lines[] = sprintf( __( 'It ends on %s: no payment is taken on or after that day.', 'recurring-payments-bridge' ), $ends );
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
