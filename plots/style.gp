# Shared by every chart: terminal, fonts, colours. Called with
#   gnuplot -e "datadir='DIR'; fmt='png|svg|dumb'; out='FILE'" plots/NN-chart.gp
# One colour per kernel variant in every chart (prepare.py writes them):
#   stock #1b9e77, legacy #7570b3, block #d95f02, block-v0 #e7298a.
if (fmt eq 'png') set terminal pngcairo size 1000,620 font 'DejaVu Sans,10' noenhanced
if (fmt eq 'svg') set terminal svg size 1000,620 font 'DejaVu Sans,10' noenhanced
# Plain text that fits an 80-column mail.
if (fmt eq 'dumb') set terminal dumb size 79,30 noenhanced
set output out
load datadir.'/vars.gp'
load datadir.'/series.gp'
set key outside right top
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
